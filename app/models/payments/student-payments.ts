import { z } from 'zod'
import { rowIdSchema } from '#app/utils/row-id.ts'
import type { PlanDiscountView } from './plan-purchases.ts'

/*
 * The student's Payments section in Settings and its receipts (issue 41 point 5, docs/decisions/064):
 * what the page and the server share.
 */

/**
 * Where a charge is recorded: a checkout's (or a later instalment's) `registration_payments` row, or
 * a plan instalment paid before such rows were written for later instalments.
 */
export const CHARGE_KINDS = ['payment', 'instalment'] as const
export type ChargeKind = (typeof CHARGE_KINDS)[number]

/** A receipt's address, `/dashboard/settings/receipts/:chargeKind/:chargeId`, read from the path. */
export const ChargeRefSchema = z.object({ chargeKind: z.enum(CHARGE_KINDS), chargeId: rowIdSchema() })

/** One charge as the student reads it. Dates are ISO instants. */
export type StudentCharge = {
	kind: ChargeKind
	id: number
	paidAt: string
	courseTitle: string
	/** "Paid in full", or the plan's payment ("Payment plan: Instalment 2 of 3"). */
	description: string
	amountCents: number
	currency: string
	/** A promotion code that took something off this charge (paying in full); a plan's code is on the plan. */
	discount: { code: string; amountOffCents: number } | null
	refundedCents: number
	/** Paid, but the seat was gone: the money is to be refunded. */
	toBeRefunded: boolean
	/** Recorded by the admin as paid another way: no card was charged. */
	paidOutside: boolean
}

/** A plan the student bought, and what is left of it. */
export type StudentPlan = {
	id: number
	courseTitle: string
	status: string
	totalCents: number
	paidCents: number
	remainingCents: number
	paidCount: number
	count: number
	discount: PlanDiscountView | null
	/** The next payment due (a failed one first), null when nothing is left. */
	next: { label: string; dueOn: string; amountCents: number; failed: boolean } | null
	/** Where to update the card and pay what failed; null when nothing failed or the provider has no such page here yet. */
	updateCardPath: string | null
}

export type StudentPayments = { charges: StudentCharge[]; plans: StudentPlan[] }

/** A receipt: the charge, who paid, and the reference to quote. */
export type StudentReceipt = StudentCharge & { paidBy: string; reference: string | null; priceCents: number | null }
