import { z } from 'zod'
import { MINIMUM_CHARGE_CENTS } from '#app/services/payments/payments.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { dollarsToCents, formatMoney } from '#app/utils/money.ts'

/**
 * Payment plans (issue 41, docs/decisions/054): what the admin's form, its preview and the server
 * share. Amounts are whole cents; days are 'YYYY-MM-DD' in the course's time zone, so daylight
 * saving never moves a due date.
 */

export const MIN_INSTALMENTS = 2
export const MAX_INSTALMENTS = 6
export const DEFAULT_GRACE_DAYS = 7
export const MAX_GRACE_DAYS = 30

export type PaymentPlanKind = 'deposit' | 'equal'

/** A plan's terms as the table keeps them. */
export type PaymentPlanTerms = {
	kind: PaymentPlanKind
	/** Set exactly for a 'deposit' plan. */
	depositCents: number | null
	instalmentCount: number
	surchargeCents: number
}

export type ScheduledPayment = {
	/** 1 for the payment made at purchase. */
	sequence: number
	isDeposit: boolean
	label: string
	dueOn: string
	amountCents: number
}

export type InstalmentSchedule = { totalCents: number; payments: ScheduledPayment[] }

function parseDay(day: string) {
	const [year, month, date] = day.split('-').map(Number)
	return { year: year!, month: month!, date: date! }
}

function formatDay(year: number, month: number, date: number) {
	return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`
}

/**
 * The same day of the month `months` later, or that month's last day when it is shorter
 * (31 January + 1 month = 28 or 29 February), always counted from `day` itself so that the 31st
 * comes back after a short month — as Stripe bills a subscription anchored on the 31st.
 */
export function addMonths(day: string, months: number) {
	const { year, month, date } = parseDay(day)
	const monthIndex = year * 12 + (month - 1) + months
	const targetYear = Math.floor(monthIndex / 12)
	const targetMonth = (monthIndex % 12) + 1
	const lastDate = new Date(Date.UTC(targetYear, targetMonth, 0)).getUTCDate()
	return formatDay(targetYear, targetMonth, Math.min(date, lastDate))
}

/** The calendar day an instant falls on in a time zone, 'YYYY-MM-DD'. */
export function dayInZone(instant: Date, timeZone: string) {
	// en-CA writes dates as YYYY-MM-DD.
	return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant)
}

/** The price paid on a plan: the course's price and the plan's surcharge. */
export function planTotalCents(priceCents: number, terms: Pick<PaymentPlanTerms, 'surchargeCents'>) {
	return priceCents + terms.surchargeCents
}

/** `totalCents` in `count` whole-cent parts that add up to it exactly, the remainder's cents on the first part. */
export function splitEvenly(totalCents: number, count: number) {
	const part = Math.floor(totalCents / count)
	const remainder = totalCents - part * count
	return Array.from({ length: count }, (_, index) => (index === 0 ? part + remainder : part))
}

/**
 * What a buyer on the plan pays and when, for a purchase on `purchaseDay`. An 'equal' plan: N
 * payments, the first at purchase, then one a month. A 'deposit' plan: the deposit at purchase,
 * then N monthly instalments from a month later. The even split's leftover cents go on its first
 * payment, so the payments add up exactly to the total.
 */
export function instalmentSchedule(terms: PaymentPlanTerms, { priceCents, purchaseDay }: { priceCents: number; purchaseDay: string }) {
	const totalCents = planTotalCents(priceCents, terms)
	const deposit = terms.kind === 'deposit' ? (terms.depositCents ?? 0) : null
	const parts = splitEvenly(totalCents - (deposit ?? 0), terms.instalmentCount)
	const payments: ScheduledPayment[] = []
	if (deposit !== null) payments.push({ sequence: 1, isDeposit: true, label: 'Deposit', dueOn: purchaseDay, amountCents: deposit })
	const offset = deposit === null ? 0 : 1
	parts.forEach((amountCents, index) => {
		payments.push({
			sequence: payments.length + 1,
			isDeposit: false,
			label: `Instalment ${index + 1} of ${terms.instalmentCount}`,
			dueOn: addMonths(purchaseDay, index + offset),
			amountCents,
		})
	})
	return { totalCents, payments } satisfies InstalmentSchedule
}

/**
 * The schedule with a promotion code's discount taken off its total (docs/decisions/054, 064): the
 * rest is split as the plan splits it, the leftover cents on the first instalment, and a deposit
 * stays what the admin set, the discount coming off the instalments. The payments still add up to
 * the (discounted) total. Null when an instalment would fall below the minimum charge: the buyer
 * pays in full instead.
 */
export function discountedSchedule(schedule: InstalmentSchedule, discountCents: number): InstalmentSchedule | null {
	const totalCents = schedule.totalCents - discountCents
	const depositCents = schedule.payments.find((payment) => payment.isDeposit)?.amountCents ?? 0
	const parts = splitEvenly(totalCents - depositCents, schedule.payments.filter((payment) => !payment.isDeposit).length)
	if (parts.some((part) => part < MINIMUM_CHARGE_CENTS)) return null
	let next = 0
	const payments = schedule.payments.map((payment) => (payment.isDeposit ? payment : { ...payment, amountCents: parts[next++]! }))
	return { totalCents, payments }
}

export type PlanProblems = Partial<Record<'depositDollars' | 'instalmentCount' | 'form', string>>

/** A plan's schedule for a purchase on `purchaseDay`, what stops it, and the last day a buyer could start it. */
export type PlanPreview = { purchaseDay: string; schedule: InstalmentSchedule; problems: PlanProblems; offeredUntil: string | null }

/**
 * What stops the plan from being offered for a purchase on `purchaseDay`, by the form field it
 * belongs to; empty when nothing does. `lastDay` is the course's last day (its last live session,
 * else its end date): the last instalment must fall before it.
 */
export function planProblems(
	terms: PaymentPlanTerms,
	{ priceCents, purchaseDay, lastDay }: { priceCents: number; purchaseDay: string; lastDay: string | null },
): PlanProblems {
	if (priceCents <= 0) return { form: 'This course is free: there is nothing to pay in instalments.' }
	if (terms.instalmentCount < MIN_INSTALMENTS || terms.instalmentCount > MAX_INSTALMENTS) {
		return { instalmentCount: `Choose from ${MIN_INSTALMENTS} to ${MAX_INSTALMENTS} instalments` }
	}
	const schedule = instalmentSchedule(terms, { priceCents, purchaseDay })
	if (terms.kind === 'deposit' && (terms.depositCents ?? 0) >= schedule.totalCents) {
		return { depositDollars: `The deposit must be less than the plan's total of ${formatMoney(schedule.totalCents)}` }
	}
	if (schedule.payments.reduce((sum, payment) => sum + payment.amountCents, 0) !== schedule.totalCents) {
		return { form: "The instalments do not add up to the plan's total." }
	}
	const smallest = Math.min(...schedule.payments.filter((payment) => !payment.isDeposit).map((payment) => payment.amountCents))
	if (smallest < MINIMUM_CHARGE_CENTS) {
		return { instalmentCount: `Each instalment must be at least ${formatMoney(MINIMUM_CHARGE_CENTS)}: choose fewer instalments` }
	}
	if (!lastDay) {
		return { form: "Set the course's end date first: the last instalment must fall before the course ends." }
	}
	const lastDue = schedule.payments.at(-1)!.dueOn
	if (lastDue >= lastDay) {
		return {
			instalmentCount: `The last instalment would be due on ${formatDateOnly(lastDue)}, not before the course's last day (${formatDateOnly(lastDay)}): choose fewer instalments`,
		}
	}
	return {}
}

/**
 * The last purchase day on which the plan still ends before `lastDay`: the purchase flow offers the
 * plan up to that day only. Null when no day from `firstDay` on fits.
 */
export function lastPurchaseDay(terms: PaymentPlanTerms, { firstDay, lastDay }: { firstDay: string; lastDay: string }) {
	const months = terms.kind === 'deposit' ? terms.instalmentCount : terms.instalmentCount - 1
	// Walked back a day at a time: at most six months of days, and no arithmetic on clamped month ends to get wrong.
	let day = previousDay(lastDay)
	while (day >= firstDay && addMonths(day, months) >= lastDay) day = previousDay(day)
	return day >= firstDay ? day : null
}

function previousDay(day: string) {
	const { year, month, date } = parseDay(day)
	return new Date(Date.UTC(year, month - 1, date - 1)).toISOString().slice(0, 10)
}

const wholeNumber = (message: string) => z.coerce.number({ error: message }).int(message)

/** A dollar amount typed in a field, in cents; empty is `empty`, anything else not an amount a message. */
function dollarsField(message: string) {
	return z
		.string()
		.trim()
		.optional()
		.transform((text, context) => {
			if (!text) return null
			const cents = dollarsToCents(text)
			if (cents === null || cents < 0) {
				context.addIssue({ code: 'custom', message })
				return z.NEVER
			}
			return cents
		})
}

export const PAYMENT_PLAN_INTENTS = ['save', 'preview'] as const

/**
 * The admin's Payment Plan form. "Preview" and "Save" send the same fields: Preview shows the
 * schedule for a purchase made today and writes nothing. With the plan switched off, only the
 * switch is read: the terms saved before are kept for when it is switched on again.
 */
export const PaymentPlanFormSchema = z.discriminatedUnion('offered', [
	z.object({ intent: z.enum(PAYMENT_PLAN_INTENTS).default('save'), offered: z.literal('no') }),
	z
		.object({
			intent: z.enum(PAYMENT_PLAN_INTENTS).default('save'),
			offered: z.literal('yes'),
			kind: z.enum(['deposit', 'equal'], { error: 'Choose a deposit and instalments, or equal instalments' }),
			depositDollars: dollarsField('Enter the deposit in dollars, such as 500 or 499.50'),
			instalmentCount: wholeNumber('Enter a whole number of instalments')
				.min(MIN_INSTALMENTS, `At least ${MIN_INSTALMENTS} instalments`)
				.max(MAX_INSTALMENTS, `At most ${MAX_INSTALMENTS} instalments`),
			surchargeDollars: dollarsField('Enter the surcharge in dollars, such as 100, or leave it empty for none').refine(
				(cents) => cents === null || cents <= 1_000_000_00,
				'At most $1,000,000',
			),
			graceDays: wholeNumber('Enter a whole number of days')
				.min(1, 'At least 1 day')
				.max(MAX_GRACE_DAYS, `At most ${MAX_GRACE_DAYS} days`)
				.default(DEFAULT_GRACE_DAYS),
		})
		.superRefine((value, context) => {
			if (value.kind !== 'deposit') return
			if (value.depositDollars === null) {
				context.addIssue({ code: 'custom', path: ['depositDollars'], message: 'Enter the deposit that holds the seat' })
			} else if (value.depositDollars < MINIMUM_CHARGE_CENTS) {
				context.addIssue({
					code: 'custom',
					path: ['depositDollars'],
					message: `The deposit must be at least ${formatMoney(MINIMUM_CHARGE_CENTS)}`,
				})
			}
		}),
])

export type PaymentPlanFormValues = z.infer<typeof PaymentPlanFormSchema>
export type OfferedPlanValues = Extract<PaymentPlanFormValues, { offered: 'yes' }>

/** The form's values as plan terms and grace days. */
export function planValues(value: OfferedPlanValues) {
	return {
		terms: {
			kind: value.kind,
			depositCents: value.kind === 'deposit' ? value.depositDollars : null,
			instalmentCount: value.instalmentCount,
			surchargeCents: value.surchargeDollars ?? 0,
		} satisfies PaymentPlanTerms,
		graceDays: value.graceDays,
	}
}
