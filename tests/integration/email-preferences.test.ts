import { describe, expect, test } from 'vitest'
import { getEmailPreferences } from '#app/models/accounts/email-preferences.server.ts'
import { action as settingsAction, loader as settingsLoader } from '#app/routes/dashboard/settings.tsx'
import { useTestDatabase } from '#tests/support/db.ts'
import { callRoute, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'

const t = useTestDatabase()

describe('the Email Notifications switches in Settings', () => {
	test('both are on for a new account, and each is saved on its own', async () => {
		const student = await signedInUser(t.db)
		const page = await callRoute(settingsLoader, getRequest('/dashboard/settings', { cookie: student.cookie }))
		expect((await page.json()).emailPreferences).toEqual({ announcements: true, reminders: true })

		// A switched-off checkbox is not sent.
		const saved = await callRoute(
			settingsAction,
			formRequest('/dashboard/settings', { intent: 'email-preferences', emailReminders: 'on' }, { cookie: student.cookie }),
		)
		expect(saved.status).toBe(302)
		expect(saved.headers.get('Location')).toBe('/dashboard/settings')
		expect(await toastOf(saved)).toMatchObject({ type: 'success', title: 'Email settings saved' })
		expect(await getEmailPreferences(t.db, student.id)).toEqual({ announcements: false, reminders: true })

		await callRoute(settingsAction, formRequest('/dashboard/settings', { intent: 'email-preferences' }, { cookie: student.cookie }))
		expect(await getEmailPreferences(t.db, student.id)).toEqual({ announcements: false, reminders: false })

		await callRoute(
			settingsAction,
			formRequest(
				'/dashboard/settings',
				{ intent: 'email-preferences', emailAnnouncements: 'on', emailReminders: 'on' },
				{ cookie: student.cookie },
			),
		)
		expect(await getEmailPreferences(t.db, student.id)).toEqual({ announcements: true, reminders: true })
	})

	test('a malformed value changes nothing', async () => {
		const student = await signedInUser(t.db)
		const response = await callRoute(
			settingsAction,
			formRequest('/dashboard/settings', { intent: 'email-preferences', emailAnnouncements: 'maybe' }, { cookie: student.cookie }),
		)
		expect(response.status).toBe(400)
		expect(await getEmailPreferences(t.db, student.id)).toEqual({ announcements: true, reminders: true })
	})
})
