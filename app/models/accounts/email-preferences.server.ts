import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import { href } from 'react-router'
import { getEnv } from '#app/utils/env.server.ts'
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

export async function setAnnouncementEmails(db: Kysely<Database>, userId: string, on: boolean) {
	await db.updateTable('profiles').set({ email_announcements: on, updated_at: new Date() }).where('id', '=', userId).execute()
}

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

function unsubscribeSignature(userId: string) {
	// The purpose is signed with the id, so no other signature made with this secret passes for one.
	return createHmac('sha256', getEnv().SESSION_SECRET).update(`unsubscribe:announcements:${userId}`).digest('base64url')
}

/**
 * The token of a person's one-click unsubscribe link: their id and an HMAC of it. It does not
 * expire (a mail read months later still works) and only ever turns announcement e-mails off
 * or back on, so it needs no sign-in; changing SESSION_SECRET voids every link sent before.
 */
export function unsubscribeToken(userId: string) {
	return `${userId}.${unsubscribeSignature(userId)}`
}

/** The id the token was made for, or null when it is not one of ours. */
export function userOfUnsubscribeToken(token: string | null) {
	const [userId = '', given = '', ...rest] = (token ?? '').split('.')
	if (rest.length > 0 || !USER_ID.test(userId)) return null
	const expected = Buffer.from(unsubscribeSignature(userId))
	const actual = Buffer.from(given)
	return actual.length === expected.length && timingSafeEqual(actual, expected) ? userId : null
}

/** The absolute address of the person's unsubscribe page (the link in a mail's footer). */
export function unsubscribeUrl(userId: string) {
	return unsubscribeUrlWithToken(unsubscribeToken(userId))
}

export function unsubscribeUrlWithToken(token: string) {
	return `${getEnv().APP_URL}${href('/unsubscribe')}?${new URLSearchParams({ token })}`
}

/** The address of a mail's `List-Unsubscribe` header, which takes the RFC 8058 one-click POST. */
export function oneClickUnsubscribeUrl(userId: string) {
	return oneClickUnsubscribeUrlWithToken(unsubscribeToken(userId))
}

export function oneClickUnsubscribeUrlWithToken(token: string) {
	return `${getEnv().APP_URL}${href('/unsubscribe/one-click')}?${new URLSearchParams({ token })}`
}

/** The address and switch of the person an unsubscribe link is for (null: no such account any more). */
export async function getUnsubscribeTarget(db: Kysely<Database>, userId: string) {
	const row = await db
		.selectFrom('users')
		.innerJoin('profiles', 'profiles.id', 'users.id')
		.select(['users.email', 'profiles.email_announcements'])
		.where('users.id', '=', userId)
		.executeTakeFirst()
	return row ? { email: row.email, announcements: row.email_announcements } : null
}
