import { describe, expect, test } from 'vitest'
import { describeMinutes } from './durations.ts'
import { renderEmail } from './render.server.ts'
import { SessionChangedEmail } from './session-changed.tsx'
import { SessionReminderEmail } from './session-reminder.tsx'
import { emailColors } from './theme.ts'
import { WeekOpenEmail } from './week-open.tsx'

const site = { name: 'Real Estate Mentorship', url: 'https://school.example', contactEmail: 'hello@school.example' }
const dashboardUrl = 'https://school.example/dashboard?course=7'

function linksOf(html: string) {
	return [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!.replaceAll('&amp;', '&'))
}

/** The school's frame, as every mail has it (app/emails/emails.test.tsx checks the same for the account mails). */
function expectSchoolFrame({ html, text }: { html: string; text: string }, title: string) {
	expect(html).toContain(`<title>${title}</title>`)
	expect(html).toContain(emailColors.brand900)
	for (const link of linksOf(html)) expect(link).toMatch(/^(https:\/\/(school\.example|zoom\.us)|mailto:)/)
	expect(text).toMatch(/^Real Estate Mentorship https:\/\/school\.example/)
	expect(text).toContain('hello@school.example')
	expect(text).not.toMatch(/<[a-z]|\u200c/)
}

describe('live-session mails', () => {
	test('a reminder names its time in hours and minutes', () => {
		expect([1440, 60, 45, 1, 61, 810, 122].map(describeMinutes)).toEqual([
			'24 hours',
			'1 hour',
			'45 minutes',
			'1 minute',
			'1 hour 1 minute',
			'13 hours 30 minutes',
			'2 hours 2 minutes',
		])
	})

	test('a reminder: the time in the student’s zone, the join link, how to turn reminders off', async () => {
		const props = {
			site,
			name: 'Ada',
			courseTitle: 'Spring Cohort',
			weekNumber: 3,
			topic: 'Financing',
			when: 'Tue 3 Nov, 7:00–8:00 pm EST',
			leadMinutes: 60,
			joinUrl: 'https://zoom.us/j/333',
			dashboardUrl,
			settingsUrl: 'https://school.example/dashboard/settings',
		}
		const mail = await renderEmail(<SessionReminderEmail {...props} />)
		expectSchoolFrame(mail, 'Reminder: Spring Cohort, week 3 live session in 1 hour')
		expect(mail.text).toContain('week 3 (Financing), is on Tue 3 Nov, 7:00–8:00 pm EST.')
		expect(mail.text).toContain('Join the live session https://zoom.us/j/333')
		expect(mail.text).toContain('https://school.example/dashboard/settings')
		expect(linksOf(mail.html)).toContain('https://zoom.us/j/333')

		const noLink = await renderEmail(<SessionReminderEmail {...props} joinUrl={null} leadMinutes={1440} />)
		expectSchoolFrame(noLink, 'Reminder: Spring Cohort, week 3 live session in 24 hours')
		expect(noLink.text).toContain(`Open your dashboard ${dashboardUrl}`)
	})

	test('a notice of a move says the new and the old time and the note; a cancellation says it will not take place', async () => {
		const props = {
			site,
			name: null,
			change: 'moved' as const,
			courseTitle: 'Spring Cohort',
			weekNumber: 2,
			when: 'Thu 18 Mar, 7:00–8:00 pm EDT',
			previously: 'Tue 9 Mar, 7:00–8:00 pm EST',
			note: 'Guest speaker',
			dashboardUrl,
		}
		const moved = await renderEmail(<SessionChangedEmail {...props} />)
		expectSchoolFrame(moved, 'Spring Cohort: week 2 live session moved')
		expect(moved.text).toContain('is now on Thu 18 Mar, 7:00–8:00 pm EDT (it was Tue 9 Mar, 7:00–8:00 pm EST).')
		expect(moved.text).toContain('Note from your instructor: Guest speaker')
		const cancelled = await renderEmail(<SessionChangedEmail {...props} change="cancelled" previously={null} note="Snow" />)
		expectSchoolFrame(cancelled, 'Spring Cohort: week 2 live session cancelled')
		expect(cancelled.text).toContain('on Thu 18 Mar, 7:00–8:00 pm EDT will not take place.')
	})

	test('"Week N is open" links to the course', async () => {
		const mail = await renderEmail(
			<WeekOpenEmail
				site={site}
				name="Sam"
				courseTitle="Spring Cohort"
				weekNumber={3}
				topic="Offers"
				sessionWhen="Tue 16 Mar, 7:00–8:00 pm EDT"
				dashboardUrl={dashboardUrl}
			/>,
		)
		expectSchoolFrame(mail, 'Spring Cohort: week 3 is open')
		expect(mail.text).toContain("The week's live session is on Tue 16 Mar, 7:00–8:00 pm EDT.")
		expect(mail.text).toContain(`Open week 3 ${dashboardUrl}`)
	})
})
