/**
 * Certificates anyone can verify (issue 40 point 4, docs/decisions/049): issued once when an
 * enrolment is completed, however many requests complete it at once; revoked and re-issued with
 * an audit entry, the public page and the status list following at once; the credential verified
 * with a library other than the one that signed it, and refused after one changed byte.
 */
import { gunzipSync } from 'node:zlib'
import { verifyAsync as verifyEd25519 } from '@noble/ed25519'
import { sql } from 'kysely'
import { beforeAll, describe, expect, test } from 'vitest'
import { sendCertificateIssued } from '#app/models/enrollment/certificate-emails.server.ts'
import { SEND_CERTIFICATE_TASK } from '#app/models/enrollment/certificates.server.ts'
import { reissueCertificate, revokeCertificate } from '#app/models/enrollment/certificates-admin.server.ts'
import { updateEnrollmentStatus } from '#app/models/enrollment/enrollments-admin.server.ts'
import { action as adminAction } from '#app/routes/admin/certificates.tsx'
import { action as dashboardAction, loader as dashboardLoader } from '#app/routes/dashboard/certificates.tsx'
import { loader as pageLoader } from '#app/routes/public/certificate.tsx'
import { loader as credentialLoader } from '#app/routes/resources/certificate-credential.ts'
import { loader as pdfLoader } from '#app/routes/resources/certificate-pdf.ts'
import { loader as statusListLoader } from '#app/routes/resources/certificate-status-list.ts'
import { loader as didLoader } from '#app/routes/resources/did-document.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	insertAttendance,
	insertCertificate,
	insertCourse,
	insertEnrollment,
	insertLiveSession,
	insertUser,
} from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, sessionCookieFor } from '#tests/support/requests.ts'

const t = useTestDatabase()
let admin: string

beforeAll(async () => {
	admin = await insertUser(t.db, { role: 'admin', name: 'Cert Admin' })
})

const decoder = new TextDecoder()

async function currentCertificates(enrollmentId: number) {
	return t.db.selectFrom('certificates').selectAll().where('enrollment_id', '=', enrollmentId).where('revoked_at', 'is', null).execute()
}

async function pageOf(certificateId: string) {
	const response = await callRoute(pageLoader, getRequest(`/certificates/${certificateId}`), { certificateId })
	return {
		status: response.status,
		body: (await response.json()) as { certificate: null | { revokedAt: string | null; recipientName: string } },
	}
}

/** The compact JWS inside the downloaded enveloped credential. */
async function downloadedJws(certificateId: string) {
	const response = await callRoute(credentialLoader, getRequest(`/certificates/${certificateId}/credential`), { certificateId })
	expect(response.status).toBe(200)
	expect(response.headers.get('Content-Disposition')).toMatch(/^attachment/)
	const envelope = (await response.json()) as { type: string; id: string }
	expect(envelope.type).toBe('EnvelopedVerifiableCredential')
	expect(envelope.id.startsWith('data:application/vc+jwt,')).toBe(true)
	return envelope.id.slice('data:application/vc+jwt,'.length)
}

/** Verifies a compact JWS with @noble/ed25519 against the key the site publishes in its DID document. */
async function verifiesWithPublishedKey(jws: string) {
	const did = (await (await callRoute(didLoader, getRequest('/.well-known/did.json'))).json()) as {
		id: string
		verificationMethod: Array<{ id: string; publicKeyJwk: { x: string } }>
	}
	const [header, payload, signature] = jws.split('.')
	try {
		const kid = JSON.parse(decoder.decode(Buffer.from(header!, 'base64url'))).kid
		const method = did.verificationMethod.find((candidate) => candidate.id === kid)
		if (!method) return false
		return await verifyEd25519(
			Buffer.from(signature!, 'base64url'),
			new TextEncoder().encode(`${header}.${payload}`),
			Buffer.from(method.publicKeyJwk.x, 'base64url'),
		)
	} catch {
		return false
	}
}

/** The text a PDF reader extracts: the name comes back only if the font has its characters. */
async function pdfText(bytes: Uint8Array) {
	const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs')
	const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise
	const content = await (await document.getPage(1)).getTextContent()
	return content.items.map((item) => ('str' in item ? item.str : '')).join('\n')
}

function payloadOf(jws: string) {
	return JSON.parse(decoder.decode(Buffer.from(jws.split('.')[1]!, 'base64url')))
}

/** Whether the status list a credential names has its bit set. */
async function revokedInStatusList(credential: { credentialStatus: { statusListCredential: string; statusListIndex: string } }) {
	const list = new URL(credential.credentialStatus.statusListCredential).pathname.split('/').at(-1)!
	const response = await callRoute(statusListLoader, getRequest(`/certificates/status/${list}`), { list })
	expect(response.headers.get('Content-Type')).toBe('application/vc+jwt')
	const jws = await response.text()
	expect(await verifiesWithPublishedKey(jws)).toBe(true)
	const encoded: string = payloadOf(jws).credentialSubject.encodedList
	const bits = gunzipSync(Buffer.from(encoded.slice(1), 'base64url'))
	const index = Number(credential.credentialStatus.statusListIndex)
	return ((bits[index >> 3]! >> (7 - (index & 7))) & 1) === 1
}

describe('issuing', () => {
	test('completing an enrolment issues one certificate and asks for its mail, however many requests complete it at once', async () => {
		const student = await insertUser(t.db, { name: 'Zoë Łukasiewicz-Ωμέγα' })
		const course = await insertCourse(t.db, { title: 'Flip Fundamentals', capacity: 10, start_date: '2026-09-01', end_date: '2026-10-27' })
		const enrollment = await insertEnrollment(t.db, { userId: student, courseId: course.id })
		await Promise.all(Array.from({ length: 8 }, () => updateEnrollmentStatus(t.db, admin, enrollment.id, 'completed')))
		const certificates = await t.db.selectFrom('certificates').selectAll().where('enrollment_id', '=', enrollment.id).execute()
		expect(certificates).toHaveLength(1)
		expect(certificates[0]).toMatchObject({
			user_id: student,
			recipient_name: 'Zoë Łukasiewicz-Ωμέγα',
			course_title: 'Flip Fundamentals',
			course_start_date: '2026-09-01',
			course_end_date: '2026-10-27',
			live_minutes: null,
			revoked_at: null,
			is_public: false,
		})
		expect(certificates[0]!.id).toMatch(/^[A-Za-z0-9_-]{22}$/)
		const { rows: jobs } = await sql<{ payload: { certificateId: string } }>`SELECT job.payload FROM graphile_worker._private_jobs job
			JOIN graphile_worker._private_tasks task ON task.id = job.task_id WHERE task.identifier = ${SEND_CERTIFICATE_TASK}`.execute(t.db)
		expect(jobs.filter((job) => job.payload.certificateId === certificates[0]!.id)).toHaveLength(1)
	})

	test("the certificate states the live minutes attended: a report's minutes, else the session's length when present or late; absent and excused count nothing", async () => {
		const student = await insertUser(t.db)
		const course = await insertCourse(t.db, { capacity: 10 })
		const enrollment = await insertEnrollment(t.db, { userId: student, courseId: course.id })
		const sessions = []
		for (let week = 1; week <= 4; week++) {
			const startsAt = new Date(Date.UTC(2026, 8, week * 7, 18))
			sessions.push(
				await insertLiveSession(t.db, {
					courseId: course.id,
					weekNumber: week,
					startsAt,
					endsAt: new Date(startsAt.getTime() + 90 * 60_000),
				}),
			)
		}
		await insertAttendance(t.db, { sessionId: sessions[0]!, userId: student, minutes: 80, source: 'report' })
		await insertAttendance(t.db, { sessionId: sessions[1]!, userId: student })
		await insertAttendance(t.db, { sessionId: sessions[2]!, userId: student, status: 'absent', source: 'hand' })
		await insertAttendance(t.db, { sessionId: sessions[3]!, userId: student, status: 'excused', source: 'hand' })
		await updateEnrollmentStatus(t.db, admin, enrollment.id, 'completed')
		const certificate = await t.db
			.selectFrom('certificates')
			.select('live_minutes')
			.where('enrollment_id', '=', enrollment.id)
			.executeTakeFirstOrThrow()
		expect(certificate.live_minutes).toBe(80 + 90)
	})

	test('other statuses issue nothing', async () => {
		const student = await insertUser(t.db)
		const course = await insertCourse(t.db, { capacity: 10 })
		const enrollment = await insertEnrollment(t.db, { userId: student, courseId: course.id, status: 'pending' })
		await updateEnrollmentStatus(t.db, admin, enrollment.id, 'active')
		await updateEnrollmentStatus(t.db, admin, enrollment.id, 'inactive')
		expect(await t.db.selectFrom('certificates').select('id').where('user_id', '=', student).execute()).toEqual([])
	})

	test('the mail goes to the student with the page and the dashboard', async () => {
		const student = await insertUser(t.db, { name: 'Mail Student', email: 'cert-mail@example.com' })
		const { certificateId } = await insertCertificate(t.db, { userId: student, course: { title: 'Rental Basics' } })
		expect(await sendCertificateIssued(t.db, certificateId)).toBe(true)
		const mail = await t.db
			.selectFrom('email_outbox')
			.select(['subject', 'text_body'])
			.where('to_address', '=', 'cert-mail@example.com')
			.executeTakeFirstOrThrow()
		expect(mail.subject).toBe('Your certificate: Rental Basics')
		expect(mail.text_body).toContain(`${getEnv().APP_URL}/certificates/${certificateId}`)
		expect(mail.text_body).toContain(`${getEnv().APP_URL}/dashboard/certificates`)
	})

	test('its job run again (and twice at once) mails the certificate once', async () => {
		const student = await insertUser(t.db, { name: 'Retry Student', email: 'cert-retry@example.com' })
		const { certificateId } = await insertCertificate(t.db, { userId: student })
		await Promise.all([1, 2, 3].map(() => sendCertificateIssued(t.db, certificateId)))
		await sendCertificateIssued(t.db, certificateId)
		const mails = await t.db.selectFrom('email_outbox').select('id').where('to_address', '=', 'cert-retry@example.com').execute()
		expect(mails).toHaveLength(1)
	})
})

describe('the public page', () => {
	test('an unknown id is a 404 that finds nothing', async () => {
		for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'short', '../../etc']) {
			const { status, body } = await pageOf(id)
			expect(status).toBe(404)
			expect(body.certificate).toBeNull()
		}
	})

	test('a revocation shows at once on the page, in the status list, and with an audit entry', async () => {
		const student = await insertUser(t.db, { name: 'Revoked Student' })
		const { certificateId } = await insertCertificate(t.db, { userId: student })
		expect((await pageOf(certificateId)).body.certificate?.revokedAt).toBeNull()
		const credential = payloadOf(await downloadedJws(certificateId))
		expect(await revokedInStatusList(credential)).toBe(false)

		expect(await revokeCertificate(t.db, admin, { id: certificateId, reason: 'Issued by mistake' })).toBe('revoked')
		expect(await revokeCertificate(t.db, admin, { id: certificateId, reason: 'Again' })).toBe('already-revoked')
		expect((await pageOf(certificateId)).body.certificate?.revokedAt).not.toBeNull()
		expect(await revokedInStatusList(credential)).toBe(true)
		const audit = await t.db.selectFrom('audit_log').selectAll().where('entity_id', '=', certificateId).execute()
		expect(audit.map((entry) => [entry.action, entry.actor_id])).toEqual([['certificate.revoke', admin]])
	})
})

describe('re-issuing', () => {
	test('a corrected name revokes the old certificate and issues a new one, with an audit entry', async () => {
		const student = await insertUser(t.db, { name: 'Jon Smiht' })
		const { certificateId, enrollmentId } = await insertCertificate(t.db, { userId: student })
		const outcome = await reissueCertificate(t.db, admin, { id: certificateId, recipientName: 'Jon Smith' })
		if (outcome.status !== 'reissued') throw new Error(outcome.status)
		expect(outcome.id).not.toBe(certificateId)
		expect((await pageOf(certificateId)).body.certificate?.revokedAt).not.toBeNull()
		expect((await pageOf(outcome.id)).body.certificate).toMatchObject({ revokedAt: null, recipientName: 'Jon Smith' })
		expect((await currentCertificates(enrollmentId)).map((row) => row.id)).toEqual([outcome.id])
		expect(payloadOf(await downloadedJws(outcome.id)).credentialSubject.identifier[0].identityHash).toBe('Jon Smith')
		const audit = await t.db
			.selectFrom('audit_log')
			.selectAll()
			.where('entity', '=', 'certificate')
			.where('entity_id', '=', outcome.id)
			.execute()
		expect(audit[0]).toMatchObject({ action: 'certificate.reissue', actor_id: admin })
		expect(audit[0]!.details).toMatchObject({ replaces: certificateId, from: 'Jon Smiht', to: 'Jon Smith' })
		// The old one cannot be re-issued again: only the current certificate can.
		expect((await reissueCertificate(t.db, admin, { id: certificateId, recipientName: 'Other' })).status).toBe('not-current')
	})

	test('the admin screen refuses a bad name and keeps what was typed', async () => {
		const student = await insertUser(t.db)
		const { certificateId } = await insertCertificate(t.db, { userId: student })
		const cookie = await sessionCookieFor(admin)
		const response = await callRoute(
			adminAction,
			formRequest('/dashboard/admin/certificates', { intent: 'reissue', certificateId, name: 'J' }, { cookie }),
		)
		expect(response.status).toBe(400)
		const body = (await response.json()) as { result: { initialValue: { name: string }; error: Record<string, string[]> } }
		expect(body.result.initialValue.name).toBe('J')
		expect(body.result.error.name).toEqual(['Name must be at least 2 characters'])
		expect(
			await currentCertificates(
				(await t.db.selectFrom('certificates').select('enrollment_id').where('id', '=', certificateId).executeTakeFirstOrThrow())
					.enrollment_id!,
			),
		).toHaveLength(1)
	})
})

describe('the credential', () => {
	test('an Open Badges 3.0 credential from the did:web issuer, verified with another library, fails after one changed byte', async () => {
		const student = await insertUser(t.db, { name: 'Ada Verify' })
		const { certificateId, courseId } = await insertCertificate(t.db, { userId: student, course: { title: 'Deal Analysis' } })
		const jws = await downloadedJws(certificateId)
		expect(await verifiesWithPublishedKey(jws)).toBe(true)

		const credential = payloadOf(jws)
		const appUrl = new URL(getEnv().APP_URL)
		expect(credential['@context']).toEqual([
			'https://www.w3.org/ns/credentials/v2',
			'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
		])
		expect(credential.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential'])
		expect(credential.issuer).toMatchObject({ id: `did:web:${encodeURIComponent(appUrl.host)}`, type: ['Profile'] })
		expect(credential.credentialSubject.achievement).toMatchObject({ name: 'Deal Analysis', id: `${getEnv().APP_URL}/courses/${courseId}` })
		expect(credential.credentialStatus).toMatchObject({ type: 'BitstringStatusListEntry', statusPurpose: 'revocation' })
		expect(JSON.parse(decoder.decode(Buffer.from(jws.split('.')[0]!, 'base64url')))).toMatchObject({ alg: 'EdDSA', typ: 'vc+jwt' })

		// One changed byte anywhere — header, payload or signature — and it no longer verifies.
		for (const position of [5, jws.indexOf('.') + 10, jws.length - 5]) {
			const original = jws[position]!
			const changed = `${jws.slice(0, position)}${original === 'A' ? 'B' : 'A'}${jws.slice(position + 1)}`
			expect(await verifiesWithPublishedKey(changed)).toBe(false)
		}
	})

	test('the DID document publishes the public key only', async () => {
		const response = await callRoute(didLoader, getRequest('/.well-known/did.json'))
		expect(response.headers.get('Content-Type')).toBe('application/did+json')
		const text = await response.text()
		expect(JSON.parse(text).verificationMethod[0].publicKeyJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: expect.any(String) })
		expect(text).not.toContain('"d"')
		expect(text).not.toContain(JSON.parse(getEnv().CERTIFICATE_SIGNING_KEY!).d)
	})
})

describe('the student', () => {
	test('downloads their own PDF, with the characters of their name; another student gets a 404', async () => {
		const student = await insertUser(t.db, { name: 'Zoë Łukasiewicz Иванов' })
		const other = await insertUser(t.db)
		const { certificateId } = await insertCertificate(t.db, { userId: student })
		const own = await callRoute(
			pdfLoader,
			getRequest(`/dashboard/certificates/${certificateId}/pdf`, { cookie: await sessionCookieFor(student) }),
			{
				certificateId,
			},
		)
		expect(own.status).toBe(200)
		expect(own.headers.get('Content-Type')).toBe('application/pdf')
		const bytes = Buffer.from(await own.arrayBuffer())
		expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
		expect(await pdfText(bytes)).toContain('Zoë Łukasiewicz Иванов')
		const forged = await callRoute(
			pdfLoader,
			getRequest(`/dashboard/certificates/${certificateId}/pdf`, { cookie: await sessionCookieFor(other) }),
			{
				certificateId,
			},
		)
		expect(forged.status).toBe(404)
	})

	test("an admin downloads any student's PDF (a student asking for theirs again); an instructor gets a 404", async () => {
		const student = await insertUser(t.db, { name: 'Asked Again' })
		const admin = await insertUser(t.db, { role: 'admin' })
		const instructor = await insertUser(t.db, { role: 'instructor' })
		const { certificateId } = await insertCertificate(t.db, { userId: student })
		const path = `/dashboard/certificates/${certificateId}/pdf`
		const byAdmin = await callRoute(pdfLoader, getRequest(path, { cookie: await sessionCookieFor(admin) }), { certificateId })
		expect(byAdmin.status).toBe(200)
		expect(await pdfText(Buffer.from(await byAdmin.arrayBuffer()))).toContain('Asked Again')
		const byInstructor = await callRoute(pdfLoader, getRequest(path, { cookie: await sessionCookieFor(instructor) }), { certificateId })
		expect(byInstructor.status).toBe(404)
	})

	test('lists their certificates with the LinkedIn link, and alone chooses whether search engines list the page', async () => {
		const student = await insertUser(t.db, { name: 'Link Student' })
		const other = await insertUser(t.db)
		const { certificateId } = await insertCertificate(t.db, { userId: student, course: { title: 'Wholesaling' } })
		const cookie = await sessionCookieFor(student)
		const list = (await (await callRoute(dashboardLoader, getRequest('/dashboard/certificates', { cookie }))).json()) as {
			certificates: Array<{ id: string; linkedInUrl: string }>
		}
		expect(list.certificates.map((certificate) => certificate.id)).toEqual([certificateId])
		const linkedIn = new URL(list.certificates[0]!.linkedInUrl)
		expect(linkedIn.origin + linkedIn.pathname).toBe('https://www.linkedin.com/profile/add')
		expect(Object.fromEntries(linkedIn.searchParams)).toMatchObject({
			startTask: 'CERTIFICATION_NAME',
			name: 'Wholesaling',
			organizationName: 'Real Estate Mentorship',
			certUrl: `${getEnv().APP_URL}/certificates/${certificateId}`,
			certId: certificateId,
		})

		const forged = await callRoute(
			dashboardAction,
			formRequest('/dashboard/certificates', { certificateId, isPublic: 'true' }, { cookie: await sessionCookieFor(other) }),
		)
		expect(forged.status).toBe(404)
		expect(
			(await t.db.selectFrom('certificates').select('is_public').where('id', '=', certificateId).executeTakeFirstOrThrow()).is_public,
		).toBe(false)
		const own = await callRoute(dashboardAction, formRequest('/dashboard/certificates', { certificateId, isPublic: 'true' }, { cookie }))
		expect(own.status).toBe(302)
		expect(
			(await t.db.selectFrom('certificates').select('is_public').where('id', '=', certificateId).executeTakeFirstOrThrow()).is_public,
		).toBe(true)
	})
})
