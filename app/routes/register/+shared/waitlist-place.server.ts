import type { SubmissionResult } from '@conform-to/react'
import { data, href, redirect } from 'react-router'
import { confirmEmail, createUser, findUserByEmail } from '#app/models/accounts/users.server.ts'
import { AgreementChangedError } from '#app/models/enrollment/agreement.server.ts'
import { AGREEMENT_CHANGED_MESSAGE } from '#app/models/enrollment/agreement.ts'
import { SeatUnavailableError } from '#app/models/enrollment/seats.server.ts'
import type { PlaceByToken } from '#app/models/enrollment/waitlist.server.ts'
import { CheckoutError, claimSeat, openCheckout } from '#app/models/payments/payments.server.ts'
import { PromotionCodeError } from '#app/models/payments/promotion-codes.server.ts'
import { PROMOTION_CODE_MESSAGES } from '#app/models/payments/promotion-codes.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { getUser, startSession } from '#app/utils/auth.server.ts'
import { getDb, transaction } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { type ActionRequest, actionToastHeaders, redirectWithToast } from '#app/utils/toast.server.ts'

type Reply = (options?: {
	formErrors?: string[]
	fieldErrors?: Record<string, string[]>
	hideFields?: string[]
}) => SubmissionResult<string[]>

/**
 * Claiming an offer: the seat goes to the account with the offer's address. A signed-in
 * person with that address claims at once; a visitor with no account makes one here (the link
 * proves the address, so it starts confirmed); anyone else must sign in with that address.
 * Then the agreement's claim: a free course (or one the promotion code makes free) enrols, a paid
 * one opens the checkout for the held seat at the course's price, less the code's discount.
 */
export async function claimOffer(
	args: ActionRequest,
	place: PlaceByToken,
	reply: Reply,
	{
		password,
		agreementVersionId,
		promotionCode,
	}: { password: string | undefined; agreementVersionId: number | undefined; promotionCode: string | null },
) {
	const { request } = args
	const db = getDb()
	const placePath = new URL(request.url).pathname.replace(/\.data$/, '')
	const user = await getUser(request)
	let setCookie: string | null = null
	if (user && user.email.toLowerCase() !== place.email.toLowerCase()) {
		return data(
			{ result: reply({ formErrors: [`This offer is for ${place.email}. Log out and sign in with that address.`] }) },
			{ status: 403 },
		)
	}
	let account = user ? { id: user.id, email: user.email } : null
	// The link came by e-mail to this address: it proves the address as a confirmation link does, and only an
	// account that confirmed the place's address may take its seat (docs/decisions/041).
	if (account) await confirmEmail(db, account.id)
	if (!account) {
		if (await findUserByEmail(db, place.email)) {
			return data(
				{ result: reply({ formErrors: [`Log in as ${place.email} to claim this seat.`], hideFields: ['password'] }) },
				{ status: 401 },
			)
		}
		if (!password) return data({ result: reply({ fieldErrors: { password: ['Choose a password for your account'] } }) }, { status: 400 })
		const created = await createUser(db, { email: place.email, name: place.name, password, confirmed: true }).catch((error: unknown) => {
			// Another claim with this link made the account a moment ago.
			if (typeof error === 'object' && error !== null && 'code' in error && error.code === '23505') return null
			throw error
		})
		if (!created) {
			return data(
				{ result: reply({ formErrors: [`Log in as ${place.email} to claim this seat.`], hideFields: ['password'] }) },
				{ status: 401 },
			)
		}
		setCookie = await startSession(request, created.id)
		account = created
	}
	const { id: userId, email } = account
	const headers: HeadersInit = setCookie ? { 'Set-Cookie': setCookie } : {}
	const payments = getPayments()
	try {
		const claim = await transaction(db, (trx) => claimSeat(trx, { userId, courseId: place.courseId, agreementVersionId, promotionCode }))
		if (claim.kind === 'enrolled') {
			return redirectWithToast(
				href('/dashboard'),
				{ type: 'success', title: 'Enrollment Successful', description: `You are enrolled in ${claim.course.title}.` },
				{ headers },
			)
		}
		const checkout = await openCheckout(db, payments, {
			claim,
			user: { id: userId, email },
			appUrl: getEnv().APP_URL,
			cancelPath: `/courses/${place.courseId}`,
		})
		return redirect(checkout.url, { status: 303, headers })
	} catch (error) {
		if (error instanceof SeatUnavailableError) {
			if (error.reason === 'already-enrolled') {
				return redirectWithToast(href('/dashboard'), { type: 'info', title: 'You are already enrolled in this course.' }, { headers })
			}
			return redirectWithToast(
				placePath,
				{ type: 'error', title: 'This offer has ended', description: 'The seat is no longer held for you.' },
				{ headers },
			)
		}
		// The code is checked and counted under its lock as on the purchase form (docs/decisions/037).
		if (error instanceof PromotionCodeError) {
			const fieldErrors = { promotionCode: [PROMOTION_CODE_MESSAGES[error.reason]] }
			return data({ result: reply({ fieldErrors, hideFields: ['password'] }) }, { status: 400, headers })
		}
		if (error instanceof CheckoutError) {
			const toast = await actionToastHeaders(args, { type: 'error', title: 'Checkout Error', description: 'Failed to initiate payment' })
			return data({ result: reply({ formErrors: [error.message], hideFields: ['password'] }) }, { status: 502, headers: toast })
		}
		// The page loads again with the version now in force; the box is to be ticked for that one.
		if (error instanceof AgreementChangedError) {
			return data(
				{ result: reply({ formErrors: [AGREEMENT_CHANGED_MESSAGE], hideFields: ['password', 'agreeToTerms'] }) },
				{ status: 409, headers },
			)
		}
		throw error
	}
}
