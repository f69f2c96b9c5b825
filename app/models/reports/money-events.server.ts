import { sql } from 'kysely'
import type { MoneyEventKind } from './exports.ts'

/*
 * The school's money events (issue 43, docs/decisions/065 and 066, amended 2026-11-29): the one
 * definition of what money moved and when, read by the overview's revenue and by the payments
 * export, so that the export's lines add up to the overview's figures for the same days and zone.
 */

/** Days 'YYYY-MM-DD', first and last included, as they are in `timeZone`. */
export type MoneyEventRange = { from: string; to: string; timeZone: string }

export type MoneyEvent = {
	at: Date
	kind: MoneyEventKind
	/** The payment row the money came in or went back on; null for money paid outside. */
	payment_id: number | null
	refund_id: number | null
	/** The plan instalment the money paid, by the authoritative link (`plan_instalment_id`) or the instalment paid outside. */
	instalment_id: number | null
	course_id: number | null
	/** Before any discount; the money received is gross − discount. */
	gross_cents: number
	discount_cents: number
	refund_cents: number
	/** Who paid and for what, and the provider's references, as the payment (or the plan) recorded them. */
	user_id: string | null
	email: string
	course_title: string
	currency: string
	promotion_code: string | null
	provider: string
	checkout_session_id: string | null
	payment_intent_id: string | null
	provider_refund_id: string | null
}

/**
 * A range of local days as the two instants that bound it: the first day's midnight in the zone, and
 * the midnight after the last (a day of 23 or 25 hours when the clocks change). A moment compared with
 * them as it is (`at >= start and at < end`) can be found by an index on its column; one turned into a
 * local day first cannot.
 */
export function rangeBounds({ from, to, timeZone }: MoneyEventRange) {
	return {
		start: sql`(${from}::date::timestamp at time zone ${timeZone})`,
		end: sql`((${to}::date + 1)::timestamp at time zone ${timeZone})`,
	}
}

/**
 * One row per money event whose moment falls within the range's days where the viewer is, with who
 * paid for what as its payment recorded it (so the export need not read the payment again):
 * - a payment row money reached (paid, refunded since, or to be refunded), at its fulfilment (its
 *   creation when unfulfilled): a checkout's, or a later plan instalment's, which names it by
 *   `plan_instalment_id` (docs/decisions/063);
 * - a plan instalment after the first, paid or paid outside, that no payment row names (the first
 *   is its checkout's payment, docs/decisions/059; one paid outside has no payment row), at `paid_at`;
 * - a refund that succeeded, at its `created_at`: the day it was made, as the provider dates it.
 * The bounds are instants (`rangeBounds`).
 */
export function moneyEvents(range: MoneyEventRange) {
	const { start, end } = rangeBounds(range)
	const paidAt = sql`coalesce(p.fulfilled_at, p.created_at)`
	return sql<MoneyEvent>`(
		select ${paidAt} as at,
			(case when p.plan_instalment_id is null then 'payment' else 'instalment' end)::text as kind,
			p.id as payment_id, null::integer as refund_id, p.plan_instalment_id as instalment_id, p.course_id,
			p.amount_cents + p.discount_cents as gross_cents, p.discount_cents, 0 as refund_cents,
			p.user_id, p.customer_email as email, p.course_title, p.currency, p.promotion_code, p.provider,
			p.checkout_session_id, p.payment_intent_id, null::text as provider_refund_id
		from registration_payments p
		where p.status in ('paid', 'refunded', 'needs_refund') and ${paidAt} >= ${start} and ${paidAt} < ${end}
		union all
		select i.paid_at, (case i.status when 'paid_outside' then 'paid_outside' else 'instalment' end)::text,
			null, null, i.id, pp.course_id,
			i.amount_cents, 0, 0,
			pp.user_id, coalesce(u.email, first.customer_email, ''), c.title, coalesce(first.currency, 'usd'), null, pp.provider,
			pp.checkout_session_id, i.payment_intent_id, null
		from plan_instalments i
		join plan_purchases pp on pp.id = i.plan_purchase_id
		join courses c on c.id = pp.course_id
		left join users u on u.id = pp.user_id
		left join registration_payments first on first.checkout_session_id = pp.checkout_session_id
		where i.status in ('paid', 'paid_outside') and i.sequence > 1
			and not exists (select 1 from registration_payments r where r.plan_instalment_id = i.id)
			and i.paid_at >= ${start} and i.paid_at < ${end}
		union all
		select f.created_at, 'refund', f.payment_id, f.id, null, p.course_id,
			0, 0, f.amount_cents,
			p.user_id, p.customer_email, p.course_title, p.currency, p.promotion_code, p.provider,
			p.checkout_session_id, p.payment_intent_id, f.provider_refund_id
		from payment_refunds f
		join registration_payments p on p.id = f.payment_id
		where f.status = 'succeeded' and f.created_at >= ${start} and f.created_at < ${end}
	)`
}
