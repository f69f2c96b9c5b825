import { randomUUID } from 'node:crypto'
import { expect, test } from '../support/e2e.ts'

test('the home page shows the hero, offer, topics, program details and calls to action', async ({ page }) => {
	await page.goto('/')
	await expect(page).toHaveTitle(/Building Wealth With Real Estate/)
	await expect(page.getByRole('heading', { level: 1, name: 'Building Wealth With Real Estate' })).toBeVisible()
	await expect(page.getByRole('region', { name: 'Limited Time Offer' })).toBeVisible()
	for (const topic of [
		'Business Formation',
		'Raising Capital',
		'Building Your Team',
		'Deal Analysis & ARV',
		'Making the Right Offer',
		'Finding Potential Tenants',
	]) {
		await expect(page.getByRole('heading', { name: topic })).toBeVisible()
	}
	const details = page.getByRole('region', { name: 'Program Details' })
	for (const text of ['Online', '8 weeks', '1-hour weekly sessions', '$2,500']) {
		await expect(details.getByText(text, { exact: true })).toBeVisible()
	}
	await expect(page.getByText('10 Weeks Duration')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Ready to Start Your Real Estate Journey?' })).toBeVisible()

	const main = page.getByRole('main')
	for (const link of await main.getByRole('link', { name: 'Get Started' }).all()) {
		await expect(link).toHaveAttribute('href', '/register')
	}
	for (const link of await main.getByRole('link', { name: 'Email Us' }).all()) {
		await expect(link).toHaveAttribute('href', '/contact')
	}
	await main.getByRole('link', { name: 'Email Us' }).first().click()
	await expect(page).toHaveURL(/\/contact$/)
})

test('the about page shows the mission and the founder biography opens', async ({ page }) => {
	await page.goto('/about')
	await expect(page.getByRole('heading', { name: 'Real estate investing, made approachable' })).toBeVisible()
	const more = page.getByText('Before investing full time, Marcus spent ten years')
	await expect(more).toBeHidden()
	await page.getByText('Read more').click()
	await expect(more).toBeVisible()
	await page.getByText('Read less').click()
	await expect(more).toBeHidden()
})

test('the FAQ lists four questions and keeps one open at a time', async ({ page }) => {
	await page.goto('/faq')
	const questions = ['What is this platform?', 'Who can enroll?', 'Is my personal information safe?', 'Who do I contact for support?']
	for (const question of questions) {
		await expect(page.getByRole('heading', { name: question })).toBeVisible()
	}
	const firstAnswer = page.getByText('It is the home of our online real-estate investing mentorship')
	const secondAnswer = page.getByText('no previous experience is needed')
	await expect(firstAnswer).toBeHidden()
	await page.getByText(questions[0]!).click()
	await expect(firstAnswer).toBeVisible()
	await page.getByText(questions[1]!).click()
	await expect(secondAnswer).toBeVisible()
	await expect(firstAnswer).toBeHidden()
})

test('the terms and privacy pages have their sections', async ({ page }) => {
	await page.goto('/terms')
	await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible()
	for (const section of ['Acceptance of Terms', 'User Accounts', 'Course Content', 'Prohibited Activities', 'Changes & Contact']) {
		await expect(page.getByRole('heading', { level: 2, name: section })).toBeVisible()
	}
	await page.goto('/privacy')
	await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible()
	for (const section of ['Information We Collect', 'How We Use Your Information', 'Sharing Your Information', 'Your Rights']) {
		await expect(page.getByRole('heading', { level: 2, name: section })).toBeVisible()
	}
})

test('the contact form stores a submission and shows the sent state', async ({ page, db }) => {
	await page.goto('/contact')
	for (const text of ['Mon-Fri', '9 AM-6 PM', 'Sat', '10 AM-4 PM', 'Sun', 'Closed']) {
		await expect(page.getByText(text, { exact: true })).toBeVisible()
	}
	const email = `visitor-${randomUUID()}@example.com`
	await page.getByRole('textbox', { name: /^Name/ }).fill('Casey Visitor')
	await page.getByRole('textbox', { name: /^Email/ }).fill(email)
	await page.getByRole('textbox', { name: 'Phone (optional)' }).fill('404-555-0123')
	await page.getByRole('textbox', { name: /^Message/ }).fill('Is the program a good fit for a complete beginner?')
	await page.getByRole('button', { name: 'Send Message' }).click()

	await expect(page.getByRole('heading', { name: 'Thank you! Your message has been sent.' })).toBeVisible()
	await expect(page).toHaveURL(/\/contact\?sent=1$/)
	await expect(page.locator('[data-toast="success"]')).toContainText('Message sent')
	await expect(page.getByRole('link', { name: 'Open your email app' })).toHaveAttribute('href', /^mailto:/)

	const rows = await db.selectFrom('contact_submissions').selectAll().where('email', '=', email).execute()
	expect(rows).toHaveLength(1)
	expect(rows[0]).toMatchObject({
		kind: 'contact',
		name: 'Casey Visitor',
		phone: '404-555-0123',
		message: 'Is the program a good fit for a complete beginner?',
	})
})

// Without JavaScript the browser's own required-field check stops the empty form; the server's
// messages for it are covered by tests/integration/contact.test.ts.
test('the contact form explains what is missing @js-only', async ({ page }) => {
	await page.goto('/contact')
	await page.getByRole('button', { name: 'Send Message' }).click()
	await expect(page.getByText('Name is required')).toBeVisible()
	await expect(page.getByText('Email is required')).toBeVisible()
	await expect(page.getByText('Message is required')).toBeVisible()
	await expect(page).toHaveURL(/\/contact$/)
})

test('the community search and filters narrow the members', async ({ page }) => {
	await page.goto('/community')
	await expect(page.getByRole('heading', { level: 1, name: 'Investor Community' })).toBeVisible()
	await expect(page.getByText('Community Members', { exact: true }).first()).toBeVisible()
	const memberCards = page.getByRole('region', { name: 'Community Members' }).getByRole('listitem')
	await expect(memberCards).toHaveCount(8)

	await page.getByLabel('Search the community').fill('Sarah')
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(page).toHaveURL(/q=Sarah/)
	await expect(page.getByRole('heading', { level: 3, name: 'Sarah Johnson' })).toBeVisible()
	await expect(page.getByRole('heading', { level: 3, name: 'Marcus Williams' })).toHaveCount(0)
	await page.getByRole('link', { name: 'Remove filter: Search: “Sarah”' }).click()
	await expect(page.getByRole('heading', { level: 3, name: 'Marcus Williams' })).toBeVisible()

	await page.getByRole('link', { name: 'Filters' }).click()
	const dialog = page.getByRole('dialog', { name: 'Filters' })
	await expect(dialog).toBeVisible()
	await dialog.getByLabel('Location').selectOption('Dallas TX')
	await dialog.getByLabel('Experience Level').selectOption({ label: 'Intermediate (3-5 years)' })
	await dialog.getByRole('button', { name: 'Apply Filters' }).click()
	await expect(dialog).toBeHidden()
	await expect(page.getByRole('link', { name: 'Remove filter: Dallas TX' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Remove filter: Intermediate (3-5 years)' })).toBeVisible()
	await expect(memberCards).toHaveCount(2)

	await page.getByRole('link', { name: 'Remove filter: Intermediate (3-5 years)' }).click()
	await expect(page.getByRole('link', { name: 'Remove filter: Intermediate (3-5 years)' })).toHaveCount(0)
	await expect(page.getByRole('heading', { level: 3, name: 'Marcus Williams' })).toBeVisible()
	await page.getByRole('link', { name: 'Clear all' }).click()
	await expect(memberCards).toHaveCount(8)
	await expect(page.getByRole('button', { name: 'Load More Members' })).toBeDisabled()
})

test('the community tabs, profile, discussion and event actions answer', async ({ page }) => {
	await page.goto('/community')
	await page.getByRole('link', { name: 'View Profile of Aisha Patel' }).click()
	const profile = page.getByRole('dialog', { name: 'Aisha Patel' })
	await expect(profile).toBeVisible()
	await profile.getByRole('button', { name: 'Connect with Aisha Patel' }).click()
	await expect(page.locator('[data-toast]')).toContainText('Connecting with Aisha Patel')

	await page.getByRole('link', { name: 'Start Discussion' }).click()
	const discussion = page.getByRole('dialog', { name: 'Start a Discussion' })
	await discussion.getByLabel('Title').fill('Looking for a lender in Denver')
	await discussion.getByRole('button', { name: 'Post Discussion' }).click()
	await expect(discussion.getByText('Please fill in all fields')).toBeVisible()
	await discussion.getByLabel('Content').fill('Who do you use for DSCR loans?')
	await discussion.getByLabel('Notify me when someone replies').check()
	await discussion.getByRole('button', { name: 'Post Discussion' }).click()
	await expect(page.locator('[data-toast="success"]')).toContainText('Discussion submitted')
	await expect(page.getByRole('heading', { level: 2, name: 'Recent Discussions' })).toBeVisible()

	await page
		.getByRole('navigation', { name: 'Community sections' })
		.getByRole('link', { name: /Events/ })
		.click()
	await expect(page.getByRole('heading', { level: 2, name: 'Upcoming Events' })).toBeVisible()
	await page.getByRole('button', { name: 'Register to Attend Atlanta Investor Meetup' }).click()
	await expect(page.locator('[data-toast]')).toContainText('Atlanta Investor Meetup')
	await expect(page.getByRole('heading', { name: 'What Our Members Say' })).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Join Our Investor Community' })).toBeVisible()
})

test('an unknown page answers 404 with a way home', async ({ page }) => {
	const response = await page.goto('/this/page/does-not-exist')
	expect(response?.status()).toBe(404)
	await expect(page.getByRole('heading', { level: 1, name: 'Oops! Page not found' })).toBeVisible()
	await page.getByRole('main').getByRole('link', { name: 'Return to Home' }).click()
	await expect(page.getByRole('heading', { level: 1, name: 'Building Wealth With Real Estate' })).toBeVisible()
})
