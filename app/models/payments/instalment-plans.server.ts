import type { Kysely } from 'kysely'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import type { Database } from '#db/types.ts'
import {
	dayInZone,
	discountedSchedule,
	instalmentSchedule,
	lastPurchaseDay,
	type PaymentPlanFormValues,
	type PaymentPlanTerms,
	type PlanPreview,
	type PlanProblems,
	planProblems,
	planValues,
} from './instalment-plans.ts'
import { type Discount, priceWithCode } from './promotion-codes.ts'

/*
 * A course's payment plan (issue 41, docs/decisions/054): on the admin's side read, previewed for a
 * purchase today and saved; on the buyer's side the plan offered for a purchase today (`offeredPlan`).
 */

export type SavedPaymentPlan = PaymentPlanTerms & { offered: boolean; graceDays: number }

type CourseForPlan = { id: number; title: string; priceCents: number; timeZone: string; lastDay: string | null }

export async function courseForPlan(db: Kysely<Database>, courseId: number, { lock = false } = {}): Promise<CourseForPlan | null> {
	let query = db.selectFrom('courses').select(['id', 'title', 'registration_fee', 'time_zone', 'end_date']).where('id', '=', courseId)
	// Course first, as every transaction of seats and payments takes it (docs/decisions/040).
	if (lock) query = query.forNoKeyUpdate()
	const course = await query.executeTakeFirst()
	if (!course) return null
	const lastSession = await db
		.selectFrom('live_sessions')
		.select(['starts_at', 'time_zone'])
		.where('course_id', '=', courseId)
		.where('status', '=', 'scheduled')
		.orderBy('starts_at', 'desc')
		.limit(1)
		.executeTakeFirst()
	const sessionDay = lastSession ? dayInZone(new Date(lastSession.starts_at), lastSession.time_zone) : null
	// The earlier of the last session and the end date: the plan must be paid before either.
	const lastDay = [sessionDay, course.end_date].filter((day): day is string => Boolean(day)).sort()[0] ?? null
	return { id: course.id, title: course.title, priceCents: course.registration_fee, timeZone: course.time_zone, lastDay }
}

async function savedPlan(db: Kysely<Database>, courseId: number): Promise<SavedPaymentPlan | null> {
	const row = await db.selectFrom('course_payment_plans').selectAll().where('course_id', '=', courseId).executeTakeFirst()
	if (!row) return null
	return {
		offered: row.offered,
		kind: row.kind,
		depositCents: row.deposit_cents,
		instalmentCount: row.instalment_count,
		surchargeCents: row.surcharge_cents,
		graceDays: row.grace_days,
	}
}

function samePlan(one: SavedPaymentPlan, other: SavedPaymentPlan) {
	const keys = ['offered', 'kind', 'depositCents', 'instalmentCount', 'surchargeCents', 'graceDays'] as const
	return keys.every((key) => one[key] === other[key])
}

/** The schedule of a plan for a purchase made on `purchaseDay`, with what stops it and the last day a buyer can start it. */
export function planPreview(terms: PaymentPlanTerms, course: CourseForPlan, purchaseDay: string): PlanPreview {
	const input = { priceCents: course.priceCents, purchaseDay, lastDay: course.lastDay }
	const problems = planProblems(terms, input)
	return {
		purchaseDay,
		schedule: instalmentSchedule(terms, input),
		problems,
		offeredUntil: course.lastDay && !problems.form ? lastPurchaseDay(terms, { firstDay: purchaseDay, lastDay: course.lastDay }) : null,
	}
}

/** The Payment Plan page: the course, its plan if one was ever saved, and the offered plan's schedule for a purchase today. Null without the course. */
export async function getPaymentPlanPage(db: Kysely<Database>, courseId: number, now = new Date()) {
	const course = await courseForPlan(db, courseId)
	if (!course) return null
	const plan = await savedPlan(db, courseId)
	const today = dayInZone(now, course.timeZone)
	return { course, plan, today, preview: plan?.offered ? planPreview(plan, course, today) : null }
}

/** The typed plan's schedule for a purchase today, writing nothing. Null without the course. */
export async function previewPaymentPlan(db: Kysely<Database>, courseId: number, terms: PaymentPlanTerms, now = new Date()) {
	const course = await courseForPlan(db, courseId)
	if (!course) return null
	return planPreview(terms, course, dayInZone(now, course.timeZone))
}

export type SavePaymentPlanResult =
	| { kind: 'not-found' }
	| { kind: 'refused'; problems: PlanProblems }
	| { kind: 'saved'; offered: boolean; changed: boolean }

/**
 * Saves the course's plan, or stops offering it (its terms kept), with an audit entry for a change.
 * The course row is locked, so two saves of one course run one after the other and leave one row;
 * the rules are checked against the price and dates read under that lock.
 */
export async function savePaymentPlan(
	db: Kysely<Database>,
	{ adminId, courseId, value, now = new Date() }: { adminId: string; courseId: number; value: PaymentPlanFormValues; now?: Date },
): Promise<SavePaymentPlanResult> {
	return transaction(db, async (trx) => {
		const course = await courseForPlan(trx, courseId, { lock: true })
		if (!course) return { kind: 'not-found' }
		const before = await savedPlan(trx, courseId)
		if (value.offered === 'no') {
			if (!before?.offered) return { kind: 'saved', offered: false, changed: false }
			await trx.updateTable('course_payment_plans').set({ offered: false, updated_at: now }).where('course_id', '=', courseId).execute()
			await recordAudit(trx, {
				actorId: adminId,
				action: 'payment_plan.withdraw',
				entity: 'course',
				entityId: courseId,
				details: { title: course.title },
			})
			return { kind: 'saved', offered: false, changed: true }
		}
		const { terms, graceDays } = planValues(value)
		const problems = planProblems(terms, {
			priceCents: course.priceCents,
			purchaseDay: dayInZone(now, course.timeZone),
			lastDay: course.lastDay,
		})
		if (Object.keys(problems).length) return { kind: 'refused', problems }
		const after: SavedPaymentPlan = { offered: true, ...terms, graceDays }
		if (before && samePlan(before, after)) return { kind: 'saved', offered: true, changed: false }
		const columns = {
			offered: true,
			kind: terms.kind,
			deposit_cents: terms.depositCents,
			instalment_count: terms.instalmentCount,
			surcharge_cents: terms.surchargeCents,
			grace_days: graceDays,
			updated_at: now,
		}
		await trx
			.insertInto('course_payment_plans')
			.values({ course_id: courseId, ...columns })
			.onConflict((conflict) => conflict.column('course_id').doUpdateSet(columns))
			.execute()
		await recordAudit(trx, {
			actorId: adminId,
			action: 'payment_plan.save',
			entity: 'course',
			entityId: courseId,
			details: { before: before ?? {}, after },
		})
		return { kind: 'saved', offered: true, changed: true }
	})
}

/** A promotion code on a plan: the code, the plan's total before it, and what it takes off that total. */
export type PlanDiscount = { code: string; priceCents: number; discountCents: number }

/** The plan a buyer may choose today: its terms, grace days, schedule (after a code, if any) and the day it is paid in full. */
export type PlanOffer = {
	terms: PaymentPlanTerms
	graceDays: number
	schedule: PlanPreview['schedule']
	purchaseDay: string
	paidInFullBy: string
	discount: PlanDiscount | null
}

/**
 * The course's plan as offered for a purchase made `now`: null when the course offers none, or the
 * plan cannot be bought today (its last instalment would fall on or after the course's last day,
 * the course is free, …). Read under the caller's course lock when buying, so the schedule sold is
 * the one checked.
 */
export async function offeredPlan(db: Kysely<Database>, courseId: number, now = new Date()): Promise<PlanOffer | null> {
	const plan = await savedPlan(db, courseId)
	if (!plan?.offered) return null
	const course = await courseForPlan(db, courseId)
	if (!course) return null
	const purchaseDay = dayInZone(now, course.timeZone)
	const preview = planPreview(plan, course, purchaseDay)
	if (Object.keys(preview.problems).length > 0) return null
	const terms = {
		kind: plan.kind,
		depositCents: plan.depositCents,
		instalmentCount: plan.instalmentCount,
		surchargeCents: plan.surchargeCents,
	}
	return {
		terms,
		graceDays: plan.graceDays,
		schedule: preview.schedule,
		purchaseDay,
		paidInFullBy: preview.schedule.payments.at(-1)!.dueOn,
		discount: null,
	}
}

/**
 * The offer with a promotion code (docs/decisions/064): the code's discount is reckoned on the
 * plan's total (price and surcharge), as for paying in full it is on the price, and spread over the
 * instalments. Null when that leaves an instalment below the minimum charge.
 */
export function offerWithCode(offer: PlanOffer, code: { code: string; discount: Discount }): PlanOffer | null {
	const priceCents = offer.schedule.totalCents
	const { discountCents } = priceWithCode(priceCents, code.discount)
	const schedule = discountedSchedule(offer.schedule, discountCents)
	return schedule ? { ...offer, schedule, discount: { code: code.code, priceCents, discountCents } } : null
}
