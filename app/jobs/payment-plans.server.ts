import type { Task } from 'graphile-worker'
import { chargeDueInstalments, pauseOverduePlans } from '#app/models/payments/plan-purchases.server.ts'
import { followPlanAtProvider } from '#app/models/payments/plan-subscriptions.server.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { getDb } from '#app/utils/db.server.ts'

/** Pauses the plans past due beyond their grace days, each once whichever process runs it (docs/decisions/054, 059). */
export const pauseOverduePlansTask: Task = async () => {
	await pauseOverduePlans(getDb())
}

/**
 * The test checkout charges the instalments due today, each once whichever process runs it
 * (docs/decisions/063). Stripe charges its own plans on its schedule: with Stripe this does nothing.
 */
export const chargeDueInstalmentsTask: Task = async () => {
	const payments = getPayments()
	if (payments instanceof TestCheckoutPayments) await chargeDueInstalments(getDb(), payments)
}

/**
 * The provider follows a plan the app changed (cancel, pause, resume; docs/decisions/063): a provider
 * that does not answer throws, and the job system retries with backoff until it does.
 */
export const followPlanAtProviderTask: Task = async (payload) => {
	const planId = (payload as { planId?: unknown } | null)?.planId
	if (typeof planId !== 'number') throw new Error('follow-plan-at-provider needs a planId')
	await followPlanAtProvider(getDb(), getPayments(), planId)
}
