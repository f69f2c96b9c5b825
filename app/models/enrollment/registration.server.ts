import type { Kysely, Transaction } from 'kysely'
import { sendConfirmationEmail } from '#app/models/accounts/account-emails.server.ts'
import { createUser, normalizeEmail, replacePasswordHash } from '#app/models/accounts/users.server.ts'
import { claimSeat, expireUnfinishedCheckouts, openCheckout, sweepExpiredCheckouts } from '#app/models/payments/payments.server.ts'
import type { PaymentProvider } from '#app/services/payments/payments.ts'
import { transaction } from '#app/utils/db.server.ts'
import type { Database } from '#db/types.ts'

/**
 * The registration wizard keeps its draft here, server-side, between steps
 * (docs/decisions/014): the browser holds only the draft's random id in a signed,
 * httpOnly cookie (app/routes/register/+shared/draft-cookie.server.ts), and the password is stored
 * only as its argon2id hash.
 */
export const DRAFT_TTL_MS = 24 * 60 * 60 * 1000

export type RegistrationDraft = {
	id: string
	name: string
	email: string
	courseId: number | null
	hasAgreedToTerms: boolean
	/** Set once step 3 has created the account (a paid registration waiting for its payment). */
	userId: string | null
}

function draftQuery(db: Kysely<Database>, draftId: string) {
	return db
		.selectFrom('registration_drafts')
		.select(['id', 'name', 'email', 'course_id', 'has_agreed_to_terms', 'user_id'])
		.where('id', '=', draftId)
		.where('expires_at', '>', new Date())
}

export async function getDraft(db: Kysely<Database>, draftId: string | null): Promise<RegistrationDraft | null> {
	if (!draftId) return null
	const row = await draftQuery(db, draftId).executeTakeFirst()
	if (!row) return null
	return {
		id: row.id,
		name: row.name,
		email: row.email,
		courseId: row.course_id,
		hasAgreedToTerms: row.has_agreed_to_terms,
		userId: row.user_id,
	}
}

/**
 * Step 1: stores the person's details (the password already hashed) in the
 * draft, a new one unless the given draft can still be edited. Returns the
 * draft id to put in the cookie. A `passwordHash` of null keeps the draft's
 * password; with no editable draft to keep it from, nothing is stored and the
 * answer is null.
 */
export async function saveDraftDetails(
	db: Kysely<Database>,
	draftId: string | null,
	details: { name: string; email: string; passwordHash: string | null },
) {
	const values = {
		name: details.name.trim(),
		email: normalizeEmail(details.email),
		expires_at: new Date(Date.now() + DRAFT_TTL_MS),
	}
	const passwordHash = details.passwordHash
	if (draftId) {
		const updated = await db
			.updateTable('registration_drafts')
			.set({ ...values, ...(passwordHash ? { password_hash: passwordHash } : {}), updated_at: new Date() })
			.where('id', '=', draftId)
			.where('user_id', 'is', null)
			.where('expires_at', '>', new Date())
			.returning('id')
			.executeTakeFirst()
		if (updated) return updated.id
	}
	if (!passwordHash) return null
	const created = await db
		.insertInto('registration_drafts')
		.values({ ...values, password_hash: passwordHash })
		.returning('id')
		.executeTakeFirstOrThrow()
	return created.id
}

/** Step 2: the chosen course (its availability is checked by the caller). */
export async function chooseDraftCourse(db: Kysely<Database>, draftId: string, courseId: number) {
	await db
		.updateTable('registration_drafts')
		.set({ course_id: courseId, has_agreed_to_terms: false, updated_at: new Date() })
		.where('id', '=', draftId)
		.execute()
}

export async function deleteDraft(db: Kysely<Database>, draftId: string) {
	await db.deleteFrom('registration_drafts').where('id', '=', draftId).execute()
}

/** Housekeeping run every minute: expired drafts, checkouts and seat holds. */
export async function sweepExpiredRegistrations(db: Kysely<Database>, payments: PaymentProvider) {
	await db.deleteFrom('registration_drafts').where('expires_at', '<=', new Date()).execute()
	await sweepExpiredCheckouts(db, payments)
}

export type RegistrationRefusal = 'draft-missing' | 'email-taken'

export class RegistrationError extends Error {
	readonly reason: RegistrationRefusal
	constructor(reason: RegistrationRefusal) {
		super(reason)
		this.reason = reason
	}
}

function isUniqueViolation(error: unknown) {
	return typeof error === 'object' && error !== null && 'code' in error && error.code === '23505'
}

/**
 * The account registered with this e-mail, and whether a new registration may start it over:
 * only an account a paid registration made and never finished — a checkout opened and none paid,
 * e-mail unconfirmed, a student, no enrolment, no direct message — so nothing anybody proved or paid for is
 * handed to the next person who types the address. `checkoutOpen`: a checkout of it may still be
 * paid (it must be expired first). With `lock`, the row is locked for the surrounding transaction.
 */
async function registeredAccount(db: Kysely<Database>, email: string, { lock = false } = {}) {
	let query = db
		.selectFrom('users')
		.leftJoin('profiles', 'profiles.id', 'users.id')
		.select((eb) => [
			'users.id',
			eb
				.and([
					eb('users.email_confirmed_at', 'is', null),
					eb.or([eb('profiles.role', 'is', null), eb('profiles.role', '=', 'student')]),
					eb.not(eb.exists(eb.selectFrom('enrollments').select('id').whereRef('enrollments.user_id', '=', 'users.id'))),
					eb.exists(eb.selectFrom('registration_payments').select('id').whereRef('registration_payments.user_id', '=', 'users.id')),
					eb.not(
						eb.exists(
							eb
								.selectFrom('registration_payments')
								.select('id')
								.whereRef('registration_payments.user_id', '=', 'users.id')
								.where('registration_payments.status', 'not in', ['pending', 'expired']),
						),
					),
					eb.not(
						eb.exists(
							eb
								.selectFrom('messages')
								.select('id')
								.where('messages.is_announcement', '=', false)
								.where((message) =>
									message.or([
										message('messages.sender_id', '=', message.ref('users.id')),
										message('messages.receiver_id', '=', message.ref('users.id')),
									]),
								),
						),
					),
				])
				.as('unfinished'),
			eb
				.exists(
					eb
						.selectFrom('registration_payments')
						.select('id')
						.whereRef('registration_payments.user_id', '=', 'users.id')
						.where('registration_payments.status', '=', 'pending'),
				)
				.as('checkoutOpen'),
		])
		.where('users.email', '=', normalizeEmail(email))
	if (lock) query = query.forUpdate('users')
	const row = await query.executeTakeFirst()
	return row ? { id: row.id, unfinished: Boolean(row.unfinished), checkoutOpen: Boolean(row.checkoutOpen) } : null
}

/** Whether step 1 must refuse the address: an account that is not an unfinished registration holds it. */
export async function emailBlocksRegistration(db: Kysely<Database>, email: string) {
	const account = await registeredAccount(db, email)
	return account !== null && !account.unfinished
}

/**
 * The account of the draft: created (unconfirmed, with its confirmation mail) unless step 3 made
 * it already. An unfinished account of the same e-mail (a checkout cancelled earlier, perhaps in
 * another browser) is started over: it takes the new name and password, its sessions, links and
 * other drafts end, and a new confirmation mail goes out.
 */
async function accountOfDraft(trx: Transaction<Database>, draftId: string) {
	const draft = await trx
		.selectFrom('registration_drafts')
		.select(['id', 'name', 'email', 'password_hash', 'course_id', 'user_id'])
		.where('id', '=', draftId)
		.where('expires_at', '>', new Date())
		.forUpdate()
		.executeTakeFirst()
	if (!draft?.course_id) throw new RegistrationError('draft-missing')
	if (draft.user_id) return { userId: draft.user_id, email: draft.email, courseId: draft.course_id }
	const existing = await registeredAccount(trx, draft.email, { lock: true })
	// A checkout still open here was paid after all (completeRegistration expired the others).
	if (existing && (!existing.unfinished || existing.checkoutOpen)) throw new RegistrationError('email-taken')
	const user = existing
		? await startAccountOver(trx, existing.id, { name: draft.name, passwordHash: draft.password_hash })
		: await createUser(trx, { email: draft.email, name: draft.name, passwordHash: draft.password_hash, confirmed: false })
	await sendConfirmationEmail(trx, { id: user.id, email: user.email, name: draft.name })
	await trx.updateTable('registration_drafts').set({ user_id: user.id, has_agreed_to_terms: true }).where('id', '=', draftId).execute()
	return { userId: user.id, email: user.email, courseId: draft.course_id }
}

async function startAccountOver(trx: Transaction<Database>, userId: string, input: { name: string; passwordHash: string }) {
	await replacePasswordHash(trx, userId, input.passwordHash)
	await trx.updateTable('profiles').set({ name: input.name.trim(), updated_at: new Date() }).where('id', '=', userId).execute()
	await trx.deleteFrom('auth_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute()
	// Another browser's draft for this account would otherwise sign that browser in once paid.
	await trx.deleteFrom('registration_drafts').where('user_id', '=', userId).execute()
	return trx.selectFrom('users').select(['id', 'email']).where('id', '=', userId).executeTakeFirstOrThrow()
}

export type RegistrationOutcome =
	| { kind: 'enrolled'; userId: string; courseTitle: string }
	| { kind: 'checkout'; userId: string; url: string }

/**
 * Step 3, after the agreement. One transaction creates the account (with its
 * confirmation mail) and either the enrollment (free course: the draft is
 * done) or a seat hold (paid course: the draft stays so that the completion
 * page can sign this browser in); then a paid course gets its checkout — the
 * one already open when this draft was submitted before (docs/decisions/040).
 * Throws RegistrationError, SeatUnavailableError, PromotionCodeError,
 * PlanUnavailableError or CheckoutError; a refused seat or code leaves no account behind.
 */
export async function completeRegistration(
	db: Kysely<Database>,
	payments: PaymentProvider,
	draftId: string,
	options: { appUrl: string; promotionCode?: string | null; agreementVersionId?: number | null; paymentPlan?: boolean },
): Promise<RegistrationOutcome> {
	const draft = await getDraft(db, draftId)
	if (draft && !draft.userId) {
		// An unfinished account about to be started over must have no checkout left that could still be paid.
		const existing = await registeredAccount(db, draft.email)
		// Read after the account: when another submit of this same draft made it a moment ago, the draft names it and it is ours.
		if (existing?.unfinished && existing.checkoutOpen && (await getDraft(db, draftId))?.userId !== existing.id) {
			await expireUnfinishedCheckouts(db, payments, existing.id)
		}
	}
	const { account, claim } = await transaction(db, async (trx) => {
		const account = await accountOfDraft(trx, draftId)
		const claim = await claimSeat(trx, {
			userId: account.userId,
			courseId: account.courseId,
			promotionCode: options.promotionCode,
			agreementVersionId: options.agreementVersionId,
			paymentPlan: options.paymentPlan,
		})
		if (claim.kind === 'enrolled') await trx.deleteFrom('registration_drafts').where('id', '=', draftId).execute()
		return { account, claim }
	}).catch((error: unknown) => {
		throw isUniqueViolation(error) ? new RegistrationError('email-taken') : error
	})
	if (claim.kind === 'enrolled') return { kind: 'enrolled', userId: account.userId, courseTitle: claim.course.title }
	const checkout = await openCheckout(db, payments, {
		claim,
		user: { id: account.userId, email: account.email },
		appUrl: options.appUrl,
		cancelPath: '/register/agreement',
	})
	return { kind: 'checkout', userId: account.userId, url: checkout.url }
}
