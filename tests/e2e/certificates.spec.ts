import { insertCertificate } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e-journeys.ts'

test('a student sees their certificate, downloads its PDF and credential, and lets search engines list it', async ({
	page,
	db,
	signInAs,
}) => {
	const student = await signInAs({ name: 'Zoë Łukasiewicz' })
	const { certificateId } = await insertCertificate(db, { userId: student.id, course: { title: 'Certified Flipping' } })

	await page.goto('/dashboard')
	await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Certificates', exact: true }).click()
	await expect(page.getByRole('heading', { level: 1, name: 'Certificates' })).toBeVisible()
	const main = page.getByRole('main')
	await expect(main.getByRole('heading', { name: 'Certified Flipping' })).toBeVisible()
	await expect(main.getByText('Valid certificate')).toBeVisible()
	await expect(main.getByText('Zoë Łukasiewicz')).toBeVisible()

	const pdfDownload = page.waitForEvent('download')
	await page.getByRole('link', { name: 'Download PDF' }).click()
	const pdf = await pdfDownload
	expect(pdf.suggestedFilename()).toBe(`certificate-${certificateId}.pdf`)

	const credentialDownload = page.waitForEvent('download')
	await page.getByRole('link', { name: 'Download credential (Open Badges 3.0)' }).click()
	expect((await credentialDownload).suggestedFilename()).toBe(`certificate-${certificateId}.json`)

	const linkedIn = new URL((await page.getByRole('link', { name: 'Add to LinkedIn profile' }).getAttribute('href')) ?? '')
	expect(linkedIn.searchParams.get('name')).toBe('Certified Flipping')
	expect(linkedIn.searchParams.get('certId')).toBe(certificateId)

	await page.getByRole('button', { name: 'Let search engines list it' }).click()
	await expect(page.getByText('Search engines may now list this certificate')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Hide from search engines' })).toBeVisible()
	await page.goto(`/certificates/${certificateId}`)
	await expect(page.getByText('Valid certificate')).toBeVisible()
	await expect(page.locator('meta[name="robots"]')).toHaveCount(0)
})

test('anyone checks a certificate without an account: valid, unknown or revoked, never indexed unless made public', async ({
	page,
	db,
	createUser,
}) => {
	const student = await createUser({ name: 'Public Checker' })
	const { certificateId } = await insertCertificate(db, { userId: student.id, course: { title: 'Verified Rentals' } })

	await page.goto(`/certificates/${certificateId}`)
	await expect(page.getByRole('heading', { level: 1, name: 'Certificate of completion' })).toBeVisible()
	await expect(page.getByText('Valid certificate')).toBeVisible()
	await expect(page.getByText('Public Checker')).toBeVisible()
	await expect(page.getByText('Verified Rentals')).toBeVisible()
	await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')

	const unknown = await page.goto('/certificates/AAAAAAAAAAAAAAAAAAAAAA')
	expect(unknown?.status()).toBe(404)
	await expect(page.getByRole('heading', { level: 1, name: 'Certificate not found' })).toBeVisible()
	await expect(page.getByText(/valid/i)).toHaveCount(0)

	await db
		.updateTable('certificates')
		.set({ revoked_at: new Date(), revoked_reason: 'Test', is_public: true })
		.where('id', '=', certificateId)
		.execute()
	await page.goto(`/certificates/${certificateId}`)
	await expect(page.getByText('Revoked: this certificate is no longer valid')).toBeVisible()
	await expect(page.getByText('Valid certificate')).toHaveCount(0)
	await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
})

test('an admin downloads a PDF, revokes a certificate after confirming, and re-issues another under a corrected name', async ({
	page,
	db,
	signInAs,
	createUser,
}) => {
	// Two certificates, two confirmation steps and four page checks: longer than one page's budget on a busy machine.
	test.slow()
	await signInAs({ role: 'admin' })
	const revoked = await createUser({ name: `Revokee ${Date.now()}` })
	const misspelt = await createUser({ name: `Jon Smiht ${Date.now()}` })
	const first = await insertCertificate(db, { userId: revoked.id })
	const second = await insertCertificate(db, { userId: misspelt.id })

	await page.goto('/dashboard/admin/certificates')
	// A student who lost their copy asks the school for it.
	const pdfDownload = page.waitForEvent('download')
	await page.getByRole('link', { name: `PDF of the certificate of ${revoked.name}` }).click()
	expect((await pdfDownload).suggestedFilename()).toBe(`certificate-${first.certificateId}.pdf`)
	await page.getByRole('link', { name: `Revoke certificate of ${revoked.name}` }).click()
	await expect(page.getByRole('heading', { name: `Revoke the certificate of ${revoked.name}?` })).toBeVisible()
	// Nothing is revoked until the confirmation is sent, with a reason.
	expect(
		(await db.selectFrom('certificates').select('revoked_at').where('id', '=', first.certificateId).executeTakeFirstOrThrow()).revoked_at,
	).toBeNull()
	await page.getByLabel('Reason').fill('Issued by mistake')
	await page.getByRole('button', { name: 'Revoke certificate' }).click()
	await expect(page.getByText('Certificate revoked', { exact: true })).toBeVisible()
	await page.goto(`/certificates/${first.certificateId}`)
	await expect(page.getByText('Revoked: this certificate is no longer valid')).toBeVisible()

	await page.goto('/dashboard/admin/certificates')
	await page.getByRole('link', { name: `Re-issue certificate of ${misspelt.name}` }).click()
	const corrected = misspelt.name.replace('Smiht', 'Smith')
	await page.getByLabel('Name on the certificate').fill(corrected)
	await page.getByRole('button', { name: 'Re-issue certificate' }).click()
	await expect(page.getByText('Certificate re-issued')).toBeVisible()
	await page.goto(`/certificates/${second.certificateId}`)
	await expect(page.getByText('Revoked: this certificate is no longer valid')).toBeVisible()
	const replacement = await db
		.selectFrom('certificates')
		.select('id')
		.where('enrollment_id', '=', second.enrollmentId)
		.where('revoked_at', 'is', null)
		.executeTakeFirstOrThrow()
	await page.goto(`/certificates/${replacement.id}`)
	await expect(page.getByText('Valid certificate')).toBeVisible()
	await expect(page.getByText(corrected)).toBeVisible()
})
