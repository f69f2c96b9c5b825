import type { Kysely } from 'kysely'
import { addMonths, dayInZone } from '#app/models/payments/instalment-plans.ts'
import type { Database } from '#db/types.ts'
import { insertCourse, insertPaymentPlan } from './fixtures.ts'

/** Where the payment-plan specs' courses run: a plan's due dates are days in the course's zone. */
export const PLAN_COURSE_ZONE = 'America/New_York'

/**
 * The course the payment-plan specs sell: $2,500.00, from today (in its zone) for four months,
 * room for three monthly instalments. With `plan` (the default) it offers the 3-instalment plan
 * with a $100.00 surcharge: $2,600.00 in all, $866.68 today. Returns the course and today's date.
 */
export async function insertPlanCourse(db: Kysely<Database>, { title, plan = true }: { title: string; plan?: boolean }) {
	const today = dayInZone(new Date(), PLAN_COURSE_ZONE)
	const course = await insertCourse(db, {
		title,
		registration_fee: 250_000,
		time_zone: PLAN_COURSE_ZONE,
		start_date: today,
		end_date: addMonths(today, 4),
	})
	if (plan) await insertPaymentPlan(db, { courseId: course.id, surcharge_cents: 10_000 })
	return { course, today }
}
