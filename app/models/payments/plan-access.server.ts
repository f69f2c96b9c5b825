import { sql } from 'kysely'

/**
 * Whether an enrolment's payment plan stops it using its course (docs/decisions/059), for queries
 * over `enrollments`: a paused plan stops everything; an enrolment completed keeps read access
 * (decision 035) only once its plan is paid in full. Apart from the plan's state machine so that
 * the access checks load no e-mail templates. A plan whose rest the admin cancelled counts as settled
 * (docs/decisions/063): the school chose to ask nothing more.
 */
export const planBlocksEnrollment = sql<boolean>`EXISTS (
	SELECT 1 FROM plan_purchases AS plan WHERE plan.enrollment_id = enrollments.id
		AND (plan.status = 'paused' OR (enrollments.status = 'completed' AND plan.status NOT IN ('completed', 'cancelled')))
)`
