import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'

/** The e-mails a person may turn off; account mail (confirmation, reset, receipts) always goes. */
export type EmailPreferences = { announcements: boolean; reminders: boolean }

export async function getEmailPreferences(db: Kysely<Database>, userId: string): Promise<EmailPreferences> {
	const row = await db
		.selectFrom('profiles')
		.select(['email_announcements', 'email_reminders'])
		.where('id', '=', userId)
		.executeTakeFirstOrThrow()
	return { announcements: row.email_announcements, reminders: row.email_reminders }
}

export async function setEmailPreferences(db: Kysely<Database>, userId: string, preferences: EmailPreferences) {
	await db
		.updateTable('profiles')
		.set({ email_announcements: preferences.announcements, email_reminders: preferences.reminders, updated_at: new Date() })
		.where('id', '=', userId)
		.execute()
}
