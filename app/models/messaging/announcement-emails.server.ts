import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { createElement } from 'react'
import { href } from 'react-router'
import { AnnouncementEmail } from '#app/emails/announcement.tsx'
import { renderEmail } from '#app/emails/render.server.ts'
import {
	oneClickUnsubscribeUrlWithToken,
	unsubscribeToken,
	unsubscribeUrlWithToken,
} from '#app/models/accounts/email-preferences.server.ts'
import { enqueueMails, type OutgoingMail } from '#app/services/mail/index.server.ts'
import type { Database } from '#db/types.ts'
import { emailSite } from './emails.server.ts'
import { announcementParts } from './messages.ts'

/**
 * The students an announcement is for: student accounts; for a course's announcement, only those
 * actively enrolled in it (the students who see it on the site, listAnnouncements).
 */
function audienceOf(db: Kysely<Database>, courseId: number | null) {
	let query = db
		.selectFrom('users')
		.innerJoin('profiles', 'profiles.id', 'users.id')
		.select(['users.id', 'users.email', 'profiles.name', 'users.email_confirmed_at as confirmedAt', 'profiles.email_announcements as on'])
		.where((eb) => eb.or([eb('profiles.role', 'is', null), eb('profiles.role', '=', 'student')]))
	if (courseId !== null) {
		query = query.where(({ exists, selectFrom }) =>
			exists(
				selectFrom('enrollments')
					.select('enrollments.id')
					.whereRef('enrollments.user_id', '=', 'users.id')
					.where('enrollments.course_id', '=', courseId)
					.where('enrollments.status', '=', 'active'),
			),
		)
	}
	return query
}

/**
 * Who a course's announcements and news are e-mailed to: its audience with a confirmed address and
 * announcement e-mails on (for every student when `courseId` is null).
 */
export function emailRecipientsOf(db: Kysely<Database>, courseId: number | null) {
	return audienceOf(db, courseId)
		.where('users.email_confirmed_at', 'is not', null)
		.where('profiles.email_announcements', '=', true)
		.orderBy('users.id')
		.execute()
}

/** How many of the names to show before 'and N more'. */
const NAMES_SHOWN = 8

function namesOf(people: Array<{ name: string | null; email: string }>) {
	const names = people.slice(0, NAMES_SHOWN).map((person) => person.name || person.email)
	return people.length > NAMES_SHOWN ? `${names.join(', ')} and ${people.length - NAMES_SHOWN} more` : names.join(', ')
}

/**
 * Who an announcement reaches by e-mail and who it does not (issue 39 point 5): the students it is
 * for, those it is e-mailed to, and by name those it is not, with why. Read when it is sent.
 */
export async function announcementReach(db: Kysely<Database>, courseId: number | null) {
	const query = audienceOf(db, courseId).orderBy('profiles.name').orderBy('users.email')
	const audience = await query.execute()
	const unconfirmed = audience.filter((person) => person.confirmedAt === null)
	const switchedOff = audience.filter((person) => person.confirmedAt !== null && !person.on)
	const emailed = audience.length - unconfirmed.length - switchedOff.length
	const missed = [
		switchedOff.length ? `${namesOf(switchedOff)} (announcement e-mails off)` : null,
		unconfirmed.length ? `${namesOf(unconfirmed)} (address not confirmed)` : null,
	].filter(Boolean)
	const students = audience.length === 1 ? 'student' : 'students'
	return {
		audience: audience.length,
		emailed,
		summary:
			missed.length === 0
				? `E-mailed to all ${audience.length} ${students}.`
				: `E-mailed to ${emailed} of ${audience.length} ${students}. Not e-mailed: ${missed.join('; ')}. They see it on the site.`,
	}
}

/**
 * The job: queues one mail per recipient of the announcement, all in one transaction that
 * also sets `emailed_at`, so a retried or repeated job (another process, a restart) finds
 * it set and sends nothing twice. The mail is rendered once; only the unsubscribe token
 * differs between recipients. Returns how many mails were queued (null: nothing to do,
 * the announcement is gone or already e-mailed).
 */
export async function emailAnnouncement(db: Kysely<Database>, messageId: number) {
	return db.transaction().execute(async (trx) => {
		const message = await trx
			.selectFrom('messages')
			.leftJoin('courses', 'courses.id', 'messages.course_id')
			.select(['messages.id', 'messages.subject', 'messages.content', 'messages.course_id', 'courses.title as courseTitle'])
			.where('messages.id', '=', messageId)
			.where('messages.is_announcement', '=', true)
			.where('messages.emailed_at', 'is', null)
			.forUpdate('messages')
			.executeTakeFirst()
		if (!message) return null
		const attachment = await trx
			.selectFrom('message_attachments')
			.select('name')
			.where('message_id', '=', messageId)
			.orderBy('id')
			.executeTakeFirst()
		const recipients = await emailRecipientsOf(trx, message.course_id)
		const { subject, body } = announcementParts(message)
		// Stands for each recipient's own token in the mail rendered once for all of them; random,
		// so no announcement's text can contain it.
		const placeholder = `token-${randomUUID()}`
		const site = await emailSite(trx)
		const rendered = await renderEmail(
			createElement(AnnouncementEmail, {
				site,
				subject,
				body,
				courseTitle: message.courseTitle,
				attachmentName: attachment?.name ?? null,
				announcementsUrl: `${site.url}${href('/dashboard/messages')}?tab=announcements`,
				unsubscribeUrl: unsubscribeUrlWithToken(placeholder),
			}),
		)
		const listUnsubscribe = `<${oneClickUnsubscribeUrlWithToken(placeholder)}>`
		const mails: OutgoingMail[] = recipients.map((recipient) => {
			const token = unsubscribeToken(recipient.id)
			return {
				to: recipient.email,
				subject,
				html: rendered.html.replaceAll(placeholder, token),
				text: rendered.text.replaceAll(placeholder, token),
				// RFC 8058: mail clients show an Unsubscribe button that POSTs to this address.
				headers: {
					'List-Unsubscribe': listUnsubscribe.replace(placeholder, token),
					'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
				},
			}
		})
		await enqueueMails(trx, mails)
		await trx.updateTable('messages').set({ emailed_at: new Date() }).where('id', '=', messageId).execute()
		return mails.length
	})
}
