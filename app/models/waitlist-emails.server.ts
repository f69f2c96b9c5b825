import type { Kysely } from 'kysely'
import { createElement } from 'react'
import { href } from 'react-router'
import { SeatOfferEmail, seatOfferSubject } from '#app/emails/seat-offer.tsx'
import { WaitlistJoinedEmail, waitlistJoinedSubject } from '#app/emails/waitlist-joined.tsx'
import { formatCents } from '#app/utils/misc.ts'
import type { Database } from '#db/types.ts'
import { emailSite, enqueueEmail } from './emails.server.ts'

const offerEnd = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' })

/** The person's page for their place in line or their offer; the token is the only key to it. */
export function waitlistPlaceUrl(token: string) {
	return `${emailSite().url}${href('/waitlist/places/:token', { token })}`
}

export async function sendWaitlistJoined(
	db: Kysely<Database>,
	input: { to: string; name: string; courseTitle: string; position: number; offerHours: number; token: string },
) {
	const site = emailSite()
	await enqueueEmail(db, {
		to: input.to,
		subject: waitlistJoinedSubject(input.courseTitle),
		body: createElement(WaitlistJoinedEmail, {
			site,
			name: input.name,
			courseTitle: input.courseTitle,
			position: input.position,
			offerHours: input.offerHours,
			entryUrl: waitlistPlaceUrl(input.token),
		}),
	})
}

export async function sendSeatOffer(
	db: Kysely<Database>,
	input: { to: string; name: string; courseTitle: string; priceCents: number; expiresAt: Date; token: string },
) {
	const site = emailSite()
	await enqueueEmail(db, {
		to: input.to,
		subject: seatOfferSubject(input.courseTitle),
		body: createElement(SeatOfferEmail, {
			site,
			name: input.name,
			courseTitle: input.courseTitle,
			price: input.priceCents === 0 ? 'Free' : formatCents(input.priceCents),
			heldUntil: `${offerEnd.format(input.expiresAt)} UTC`,
			offerUrl: waitlistPlaceUrl(input.token),
		}),
	})
}
