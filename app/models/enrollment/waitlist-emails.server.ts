import type { Kysely } from 'kysely'
import { createElement } from 'react'
import { href } from 'react-router'
import { OfferExpiredEmail, offerExpiredSubject } from '#app/emails/offer-expired.tsx'
import { SeatOfferEmail, seatOfferSubject } from '#app/emails/seat-offer.tsx'
import { WaitlistJoinedEmail, waitlistJoinedSubject } from '#app/emails/waitlist-joined.tsx'
import { WaitlistNoticeEmail, waitlistNoticeSubject } from '#app/emails/waitlist-notice.tsx'
import { emailSite, enqueueEmail, enqueueSiteEmail, siteUrl } from '#app/models/messaging/emails.server.ts'
import { formatMoment } from '#app/models/sessions/live-sessions.ts'
import { formatPrice } from '#app/utils/money.ts'
import { hashToken } from '#app/utils/session.server.ts'
import type { Database } from '#db/types.ts'

/** The person's page for their place in line or their offer; the token is the only key to it. */
function waitlistPlaceUrl(token: string) {
	return `${siteUrl()}${href('/waitlist/places/:token', { token })}`
}

export async function sendWaitlistJoined(
	db: Kysely<Database>,
	input: { to: string; name: string; courseTitle: string; position: number; offerHours: number; token: string },
) {
	await enqueueSiteEmail(db, WaitlistJoinedEmail, {
		to: input.to,
		subject: waitlistJoinedSubject(input.courseTitle),
		props: {
			name: input.name,
			courseTitle: input.courseTitle,
			position: input.position,
			offerHours: input.offerHours,
			entryUrl: waitlistPlaceUrl(input.token),
		},
	})
}

const NOTICE_INTERVAL_MS = 24 * 60 * 60 * 1000

/**
 * Tells an address that asked (or was asked) to join a course's line that it is enrolled or in
 * line already (docs/decisions/041). Anyone can type any address into the form, so the same
 * notice goes to an address at most once a day per course.
 */
export async function sendWaitlistNotice(
	db: Kysely<Database>,
	input: { to: string; name: string; courseTitle: string; kind: 'enrolled' | 'in-line'; position: number | null },
) {
	const subject = waitlistNoticeSubject(input.kind, input.courseTitle)
	const recent = await db
		.selectFrom('email_outbox')
		.select('id')
		.where('to_address', '=', input.to)
		.where('subject', '=', subject)
		.where('created_at', '>', new Date(Date.now() - NOTICE_INTERVAL_MS))
		.executeTakeFirst()
	if (recent) return false
	await enqueueSiteEmail(db, WaitlistNoticeEmail, {
		to: input.to,
		subject,
		props: (site) => ({
			name: input.name,
			courseTitle: input.courseTitle,
			kind: input.kind,
			position: input.position,
			loginUrl: `${site.url}${href('/login')}`,
		}),
	})
	return true
}

/**
 * Waitlist entries with what an offer's mails say: the course, and the deadline's zone — the
 * reader's when the address has an account that chose one, else the course's (issue 39 point 6).
 */
function offersWithReaderZone(db: Kysely<Database>) {
	return db
		.selectFrom('waitlist_entries')
		.innerJoin('courses', 'courses.id', 'waitlist_entries.course_id')
		.leftJoin('users', 'users.email', 'waitlist_entries.email')
		.leftJoin('profiles', 'profiles.id', 'users.id')
		.select([
			'waitlist_entries.id as entryId',
			'waitlist_entries.email',
			'waitlist_entries.name',
			'waitlist_entries.offer_expires_at',
			'courses.id as courseId',
			'courses.title',
			'courses.registration_fee',
			'courses.time_zone as courseZone',
			'profiles.time_zone as readerZone',
		])
}

/**
 * The offer mail of an entry (the `send-seat-offer` job): sent while the offer with this link is
 * still open; an offer that ended first (declined, claimed, removed, run out) mails nothing.
 */
export async function sendSeatOffer(db: Kysely<Database>, { entryId, token }: { entryId: number; token: string }) {
	const offer = await offersWithReaderZone(db)
		.where('waitlist_entries.id', '=', entryId)
		.where('waitlist_entries.status', '=', 'offered')
		.where('waitlist_entries.offer_token_hash', '=', hashToken(token))
		.where('waitlist_entries.offer_expires_at', '>', new Date())
		.executeTakeFirst()
	if (!offer?.offer_expires_at) return false
	await enqueueSiteEmail(db, SeatOfferEmail, {
		to: offer.email,
		subject: seatOfferSubject(offer.title),
		// One mail per offer (its link's hash names it), however often its job runs.
		dedupeKey: `seat-offer:${hashToken(token)}`,
		props: {
			name: offer.name,
			courseTitle: offer.title,
			price: offer.registration_fee === 0 ? 'Free' : formatPrice(offer.registration_fee),
			heldUntil: formatMoment(new Date(offer.offer_expires_at), offer.readerZone ?? offer.courseZone),
			offerUrl: waitlistPlaceUrl(token),
		},
	})
	return true
}

/**
 * Tells the people whose offers ran out unclaimed that their seat went to the next in line (issue 39
 * point 6), with the deadline in their zone. In the transaction that records the offers as expired.
 */
export async function sendOfferExpiredNotices(db: Kysely<Database>, entryIds: number[]) {
	if (entryIds.length === 0) return
	const rows = await offersWithReaderZone(db).where('waitlist_entries.id', 'in', entryIds).execute()
	const site = await emailSite(db)
	for (const row of rows) {
		if (!row.offer_expires_at) continue
		await enqueueEmail(db, {
			to: row.email,
			subject: offerExpiredSubject(row.title),
			body: createElement(OfferExpiredEmail, {
				site,
				name: row.name,
				courseTitle: row.title,
				heldUntil: formatMoment(new Date(row.offer_expires_at), row.readerZone ?? row.courseZone),
				courseUrl: `${site.url}${href('/courses/:id', { id: String(row.courseId) })}`,
			}),
			// One notice per offer that ran out (an entry can be offered again later).
			dedupeKey: `offer-expired:${row.entryId}:${new Date(row.offer_expires_at).toISOString()}`,
		})
	}
}
