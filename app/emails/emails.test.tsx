import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { AnnouncementEmail } from './announcement.tsx'
import { CommunityRepliesEmail } from './community-replies.tsx'
import { ConfirmEmail } from './confirm-email.tsx'
import { CourseUpdateEmail } from './course-update.tsx'
import { EnrollmentReceiptEmail } from './enrollment-receipt.tsx'
import { AccessChangedEmail, InvitationEmail } from './invitation.tsx'
import { OfferExpiredEmail } from './offer-expired.tsx'
import { RefundNoticeEmail } from './refund-notice.tsx'
import { renderEmail } from './render.server.ts'
import { ResetPasswordEmail } from './reset-password.tsx'
import { SeatOfferEmail } from './seat-offer.tsx'
import { emailColors } from './theme.ts'
import { WaitlistJoinedEmail } from './waitlist-joined.tsx'
import { WaitlistNoticeEmail } from './waitlist-notice.tsx'

const site = { name: 'Real Estate Mentorship', url: 'https://school.example', contactEmail: 'hello@school.example' }

/** Every href of the HTML part. */
function linksOf(html: string) {
	return [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!.replaceAll('&amp;', '&'))
}

/** What every mail has: the school's name and colours, absolute links, a footer with the contact address and the reason. */
function expectSchoolFrame({ html, text }: { html: string; text: string }, { title, reason }: { title: string; reason: RegExp }) {
	expect(html).toMatch(/^<!DOCTYPE html/)
	expect(html).toContain(`<title>${title}</title>`)
	expect(html).toContain('Real Estate Mentorship')
	expect(html).toContain(emailColors.brand900)
	expect(html).toContain('href="mailto:hello@school.example"')
	for (const link of linksOf(html)) expect(link).toMatch(/^(https:\/\/school\.example|mailto:)/)
	expect(text).toMatch(/^Real Estate Mentorship https:\/\/school\.example/)
	expect(text).toContain('hello@school.example')
	expect(text).toMatch(reason)
	expect(html).toMatch(reason)
	// The plain text is text: no markup and no inbox preview padding.
	expect(text).not.toMatch(/<[a-z]|\u200c/)
}

describe('e-mail templates', () => {
	test('the confirmation mail: greeting, button and link, validity, why it came', async () => {
		const confirmUrl = 'https://school.example/confirm-email?token=a%2Bb&x=1'
		const mail = await renderEmail(<ConfirmEmail site={site} name="Ada <Lovelace>" confirmUrl={confirmUrl} />)
		expectSchoolFrame(mail, { title: 'Confirm your email address', reason: /this address was used to create an account/ })
		expect(mail.html).toContain('Hi Ada &lt;Lovelace&gt;')
		expect(linksOf(mail.html).filter((link) => link === confirmUrl)).toHaveLength(2)
		expect(mail.html).toContain('Confirm my email address')
		expect(mail.text).toContain('Hi Ada <Lovelace>,')
		expect(mail.text).toContain(`Confirm my email address ${confirmUrl}`)
		expect(mail.text.split(confirmUrl)).toHaveLength(2)
		expect(mail.text).toContain('48 hours')
	})

	test('the password-reset mail: link, expiry, a name-less greeting', async () => {
		const resetUrl = 'https://school.example/reset-password?token=xyz'
		const mail = await renderEmail(<ResetPasswordEmail site={site} name={null} resetUrl={resetUrl} />)
		expectSchoolFrame(mail, { title: 'Reset your password', reason: /someone asked to reset the password/ })
		expect(mail.text).toContain('Hi there,')
		expect(mail.text).toContain(`Choose a new password ${resetUrl}`)
		expect(mail.text).toContain('expires in 1 hour')
		expect(linksOf(mail.html)).toContain(resetUrl)
	})

	test('the invitation: role and courses, the set-password link, how long it works and that only the newest works', async () => {
		const acceptUrl = 'https://school.example/accept-invite?token=abc'
		const mail = await renderEmail(
			<InvitationEmail
				site={site}
				name="Ivy"
				invitedAs="instructor"
				courses={['Spring Cohort', 'Autumn Cohort']}
				acceptUrl={acceptUrl}
				linkDays={7}
			/>,
		)
		expectSchoolFrame(mail, {
			title: 'You are invited: set your password',
			reason: /an administrator of Real Estate Mentorship invited this address/,
		})
		expect(mail.text).toContain('Hi Ivy,')
		expect(mail.text).toContain('as an instructor of Spring Cohort, Autumn Cohort')
		expect(mail.text).toContain(`Set my password ${acceptUrl}`)
		expect(mail.text).toContain('works once, for 7 days')
		expect(mail.text).toContain('only the newest link works')
		expect(linksOf(mail.html)).toContain(acceptUrl)
		const student = await renderEmail(
			<InvitationEmail site={site} name={null} invitedAs="student" courses={[]} acceptUrl={acceptUrl} linkDays={7} />,
		)
		expect(student.text).toContain('Hi there,')
		expect(student.text).toContain('as a student.')
	})

	test('the access-changed mail: the new role, no password link', async () => {
		const dashboardUrl = 'https://school.example/dashboard'
		const mail = await renderEmail(
			<AccessChangedEmail site={site} name="Stu" invitedAs="instructor" courses={['Spring Cohort']} dashboardUrl={dashboardUrl} />,
		)
		expectSchoolFrame(mail, { title: 'Your account has changed', reason: /changed the role or courses of the account/ })
		expect(mail.text).toContain('made you an instructor of Spring Cohort')
		expect(mail.text).toContain('Your password stays the same.')
		expect(mail.text).not.toContain('accept-invite')
		expect(linksOf(mail.html)).toContain(dashboardUrl)
	})

	test('the enrollment receipt: course, start, amount, payment reference, a link to the course', async () => {
		const courseUrl = 'https://school.example/dashboard?course=7'
		const receipt = {
			site,
			school: { address: '', taxId: '' },
			name: 'Ada',
			courseTitle: 'Spring Cohort',
			amountPaid: '$2,500.00',
			startsOn: 'Jan 13, 2031',
			paymentReference: 'cs_test_123',
			courseUrl,
		}
		const paid = await renderEmail(<EnrollmentReceiptEmail {...receipt} />)
		expectSchoolFrame(paid, {
			title: 'Enrollment confirmed: Spring Cohort',
			reason: /you enrolled in Spring Cohort .*Keep it as your receipt/,
		})
		expect(paid.text).toMatch(/Course +Spring Cohort\nStarts +Jan 13, 2031\nAmount paid +\$2,500\.00\nPayment reference +cs_test_123/)
		expect(paid.text).toContain(`Go to your course ${courseUrl}`)
		expect(linksOf(paid.html)).toContain(courseUrl)

		const free = await renderEmail(<EnrollmentReceiptEmail {...receipt} amountPaid="Free" startsOn={null} paymentReference={null} />)
		expect(free.text).toMatch(/Course +Spring Cohort\nAmount paid +Free\n/)
		expect(free.text).not.toMatch(/Starts|Payment reference/)

		const discounted = await renderEmail(
			<EnrollmentReceiptEmail
				{...receipt}
				amountPaid="$2,000.00"
				discount={{ code: 'SPRING20', price: '$2,500.00', amountOff: '$500.00' }}
			/>,
		)
		expect(discounted.text).toMatch(/Price +\$2,500\.00\nPromotion code SPRING20 +−\$500\.00\nAmount paid +\$2,000\.00/)

		expect(paid.text).toMatch(/Issued by +Real Estate Mentorship\n/)
		expect(paid.text).not.toMatch(/Address|Tax ID/)
	})

	test('the receipt names the school as its admin set it: name, each line of the address, the tax id', async () => {
		const mail = await renderEmail(
			<EnrollmentReceiptEmail
				site={{ ...site, name: 'Harbour <School> of Property' }}
				school={{
					address: '12 Harbour Street\nSuite 4\nSpringfield, IL 62701',
					taxId: 'EIN 12-3456789',
				}}
				name="Ada"
				courseTitle="Spring Cohort"
				amountPaid="$2,000.00"
				discount={{ code: 'SPRING20', price: '$2,500.00', amountOff: '$500.00' }}
				startsOn={null}
				paymentReference="cs_test_123"
				courseUrl="https://school.example/dashboard?course=7"
			/>,
		)
		expect(mail.text).toMatch(
			/Issued by +Harbour <School> of Property\nAddress +12 Harbour Street\n +Suite 4\n +Springfield, IL 62701\nTax ID +EIN 12-3456789/,
		)
		expect(mail.html).toContain('Harbour &lt;School&gt; of Property')
		// The school's name heads and signs the mail too.
		expect(mail.text).toMatch(/^Harbour <School> of Property https:\/\/school\.example/)
		expect(mail.text).toContain('Harbour <School> of Property · Questions? Write to')
		expect(mail.text).toMatch(/you enrolled in Spring Cohort at Harbour <School> of Property\. Keep it as your receipt/)
		expect(mail.text).toMatch(/Price +\$2,500\.00\nPromotion code SPRING20 +−\$500\.00\nAmount paid +\$2,000\.00/)
	})

	test('an announcement: subject, paragraphs and line breaks, course, attached file, link to the site, unsubscribe link', async () => {
		const announcementsUrl = 'https://school.example/dashboard/messages?tab=announcements'
		const unsubscribeUrl = 'https://school.example/unsubscribe?token=abc.def'
		const props = {
			site,
			subject: 'Week 2: new <time>',
			body: 'Class moves to Thursday.\nSame link.\n\nBring the worksheet & a pen.',
			courseTitle: 'Spring Cohort',
			attachmentName: 'worksheet.pdf',
			announcementsUrl,
			unsubscribeUrl,
		}
		const mail = await renderEmail(<AnnouncementEmail {...props} />)
		expectSchoolFrame(mail, {
			title: 'Week 2: new &lt;time&gt;',
			reason: /you are a student of Spring Cohort and announcement emails are on/,
		})
		expect(mail.html).toContain('Class moves to Thursday.<br/>Same link.')
		expect(mail.html).toContain('Bring the worksheet &amp; a pen.')
		expect(mail.text).toContain('WEEK 2: NEW <TIME>')
		expect(mail.text).toMatch(/Class moves to Thursday\.\nSame link\.\n\nBring the worksheet & a pen\./)
		expect(mail.text).toContain('Announcement · Spring Cohort')
		expect(mail.text).toContain('worksheet.pdf')
		expect(mail.text).toContain(`Read it on the site ${announcementsUrl}`)
		expect(mail.text).toContain(`Unsubscribe from announcement emails ${unsubscribeUrl}`)
		expect(linksOf(mail.html)).toEqual(expect.arrayContaining([announcementsUrl, unsubscribeUrl]))

		const toEveryone = await renderEmail(<AnnouncementEmail {...props} courseTitle={null} attachmentName={null} />)
		expect(toEveryone.text).toMatch(/you are a student at Real Estate Mentorship and announcement emails are on/)
		expect(toEveryone.text).not.toMatch(/Spring Cohort|attached/)
	})

	test('replies to a discussion: who wrote what, how many more, the link to the thread, the unsubscribe link', async () => {
		const threadUrl = 'https://school.example/dashboard/community/3/threads/7'
		const unsubscribeUrl = 'https://school.example/unsubscribe?token=abc.def'
		const mail = await renderEmail(
			<CommunityRepliesEmail
				site={site}
				name="Ana"
				courseTitle="Spring Cohort"
				threadTitle="Hard money <or> HELOC?"
				replies={[
					{ authorName: 'Ben', excerpt: 'HELOC if you have equity.' },
					{ authorName: 'Ivy', excerpt: 'Run the numbers & compare.' },
				]}
				more={3}
				threadUrl={threadUrl}
				unsubscribeUrl={unsubscribeUrl}
			/>,
		)
		expectSchoolFrame(mail, {
			title: '5 new replies to &quot;Hard money &lt;or&gt; HELOC?&quot;',
			reason: /you asked to hear about replies to your discussion in Spring Cohort and course e-mails are on/,
		})
		expect(mail.text).toContain('Ben wrote: HELOC if you have equity.')
		expect(mail.text).toContain('And 3 more.')
		expect(mail.html).toContain('Run the numbers &amp; compare.')
		expect(linksOf(mail.html)).toEqual(expect.arrayContaining([threadUrl]))
		expect(mail.text).toContain(unsubscribeUrl)
	})

	test('the refund notice: amounts, reason, reference, and whether the enrolment ended', async () => {
		const notice = {
			site,
			name: 'Sam',
			courseTitle: 'Spring Cohort',
			amountRefunded: '$500.00',
			totalRefunded: '$500.00',
			amountPaid: '$2,500.00',
			note: 'Missed two weeks & "more"',
			refundReference: 're_123',
			enrollmentEnded: false,
		}
		const partial = await renderEmail(<RefundNoticeEmail {...notice} />)
		expectSchoolFrame(partial, { title: 'Refund issued: Spring Cohort', reason: /you paid for Spring Cohort .*refunded/ })
		expect(partial.text).toMatch(
			/Course +Spring Cohort\nRefunded now +\$500\.00\nRefunded in total +\$500\.00 of \$2,500\.00\nReason +Missed two weeks & "more"\nRefund reference +re_123/,
		)
		expect(partial.html).toContain('Missed two weeks &amp; &quot;more&quot;')
		expect(partial.text).toContain('You are still enrolled in Spring Cohort')
		const full = await renderEmail(<RefundNoticeEmail {...notice} note="" enrollmentEnded />)
		expect(full.text).not.toContain('Reason')
		expect(full.text).toContain('Your enrollment in Spring Cohort has ended')
	})

	test('the waitlist confirmation: the position, the offer time, the link to the place', async () => {
		const entryUrl = 'https://school.example/waitlist/places/abc'
		const mail = await renderEmail(
			<WaitlistJoinedEmail site={site} name="Ada" courseTitle="Spring Cohort" position={3} offerHours={48} entryUrl={entryUrl} />,
		)
		expectSchoolFrame(mail, { title: 'You are on the waitlist: Spring Cohort', reason: /joined the waitlist for Spring Cohort/ })
		expect(mail.text).toContain('You are number 3 in line for Spring Cohort.')
		expect(mail.text).toContain('for 48 hours')
		expect(mail.text).toContain(`See your place in line ${entryUrl}`)
		expect(linksOf(mail.html)).toContain(entryUrl)
	})

	test('the waitlist notices: already enrolled, already in line; neither carries a link to a place', async () => {
		const loginUrl = 'https://school.example/login'
		const enrolled = await renderEmail(
			<WaitlistNoticeEmail site={site} name="Ada" courseTitle="Spring Cohort" kind="enrolled" position={null} loginUrl={loginUrl} />,
		)
		expectSchoolFrame(enrolled, { title: 'You are already enrolled: Spring Cohort', reason: /someone asked to put this address/ })
		expect(enrolled.text).toContain('this address already has a seat in it')
		const inLine = await renderEmail(
			<WaitlistNoticeEmail site={site} name="Ada" courseTitle="Spring Cohort" kind="in-line" position={2} loginUrl={loginUrl} />,
		)
		expectSchoolFrame(inLine, { title: 'You are already on the waitlist: Spring Cohort', reason: /If it was not you/ })
		expect(inLine.text).toContain('you are number 2 in line')
		for (const mail of [enrolled, inLine]) {
			expect(linksOf(mail.html)).toContain(loginUrl)
			expect(linksOf(mail.html).some((link) => link.includes('/waitlist/places/'))).toBe(false)
			expect(mail.text).not.toContain('/waitlist/places/')
		}
	})

	test('the seat offer: course, price, until when, the claim link', async () => {
		const offerUrl = 'https://school.example/waitlist/places/xyz'
		const mail = await renderEmail(
			<SeatOfferEmail
				site={site}
				name="Ada"
				courseTitle="Spring Cohort"
				price="$2,500.00"
				heldUntil="Saturday, November 28, 2026 at 10:00 AM UTC"
				offerUrl={offerUrl}
			/>,
		)
		expectSchoolFrame(mail, { title: 'A seat is free for you: Spring Cohort', reason: /you are on the waitlist for Spring Cohort/ })
		expect(mail.text).toContain('We hold it for you until Saturday, November 28, 2026 at 10:00 AM UTC.')
		expect(mail.text).toContain('Price: $2,500.00.')
		expect(mail.text).toContain(`Claim your seat ${offerUrl}`)
		expect(linksOf(mail.html)).toContain(offerUrl)
	})

	test('a course update: the news, the way to it, and how to turn these mails off', async () => {
		const url = 'https://school.example/dashboard/assignments/4'
		const unsubscribeUrl = 'https://school.example/unsubscribe?token=abc'
		const mail = await renderEmail(
			<CourseUpdateEmail
				site={site}
				name="Ada"
				courseTitle="Spring Cohort"
				subject="Spring Cohort: new assignment, Deal Memo"
				heading="A new assignment"
				lines={['Deal Memo has been posted in Spring Cohort.']}
				action={{ label: 'See the assignment', url }}
				unsubscribeUrl={unsubscribeUrl}
			/>,
		)
		expectSchoolFrame(mail, {
			title: 'Spring Cohort: new assignment, Deal Memo',
			reason: /enrolled in Spring Cohort at Real Estate Mentorship/,
		})
		expect(mail.text).toContain('Deal Memo has been posted in Spring Cohort.')
		expect(mail.text).toContain(`See the assignment ${url}`)
		expect(mail.text).toContain(unsubscribeUrl)
	})

	test('the released offer: which course, until when it was held, the course page', async () => {
		const courseUrl = 'https://school.example/courses/7'
		const mail = await renderEmail(
			<OfferExpiredEmail site={site} name="Ada" courseTitle="Spring Cohort" heldUntil="Sat 28 Nov, 10:00 am CST" courseUrl={courseUrl} />,
		)
		expectSchoolFrame(mail, {
			title: 'Your held seat has been released: Spring Cohort',
			reason: /a seat in Spring Cohort at Real Estate Mentorship was held for you/,
		})
		expect(mail.text).toContain('We held a seat in Spring Cohort for you until Sat 28 Nov, 10:00 am CST.')
		expect(mail.text).toContain(`See the course ${courseUrl}`)
		expect(linksOf(mail.html)).toContain(courseUrl)
	})

	test("the mail colours are the site's (app/app.css)", () => {
		const css = readFileSync(path.resolve(import.meta.dirname, '../app.css'), 'utf8')
		for (const [name, value] of Object.entries({
			'brand-50': emailColors.brand50,
			'brand-100': emailColors.brand100,
			'brand-700': emailColors.brand700,
			'brand-900': emailColors.brand900,
			ink: emailColors.ink,
		})) {
			expect(css).toContain(`--color-${name}: ${value};`)
		}
	})
})
