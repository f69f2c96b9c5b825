import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, href } from 'react-router'
import { WaitlistPlacePanel } from '#app/components/waitlist/place-panel.tsx'
import { findUserByEmail } from '#app/models/accounts/users.server.ts'
import { agreementForCourse } from '#app/models/enrollment/agreement.server.ts'
import { declineOffer, getPlaceByToken, leaveWaitlist } from '#app/models/enrollment/waitlist.server.ts'
import { PlaceActionSchema } from '#app/models/enrollment/waitlist.ts'
import { APPLY_CODE_INTENT, type PromotionCodePreview } from '#app/models/payments/promotion-codes.ts'
import { getUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { claimOffer } from './+shared/waitlist-place.server.ts'
import { previewCode, refuseCodeGuessing } from './+shared/wizard.server.ts'
import { RegisterErrorBoundary } from './+shared/wizard.tsx'
import type { Route } from './+types/waitlist-place'

async function placeOf(token: string) {
	const place = await getPlaceByToken(getDb(), token)
	if (!place) throw data('Waitlist place not found', { status: 404 })
	return place
}

/**
 * A person's place in a course's line, reached by the link in their e-mails (the token is the
 * only key: no sign-in needed to see it or leave). With an open offer it is the agreement step.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const place = await placeOf(params.token)
	const user = await getUser(request)
	const signedInAsOwner = Boolean(user && user.email.toLowerCase() === place.email.toLowerCase())
	const hasAccount = signedInAsOwner || Boolean(await findUserByEmail(getDb(), place.email))
	const { id, courseId, courseTitle, status, position, offerExpiresAt, registrationFee, email, name } = place
	// The agreement is read only when it is to be accepted: with an open offer (docs/decisions/043).
	const agreement = status === 'offered' ? await agreementForCourse(getDb(), courseId) : null
	return {
		place: { id, courseId, courseTitle, status, position, offerExpiresAt, registrationFee, email, name, agreement },
		viewer: { signedIn: Boolean(user), signedInAsOwner, hasAccount },
		confirm: new URL(request.url).searchParams.get('confirm'),
	}
}

/** What the page's forms get back: the reply, and with Apply the price with the code. */
type PlaceReply = { result: SubmissionResult<string[]>; preview?: PromotionCodePreview | null }

export async function action(args: Route.ActionArgs): Promise<Response | ReturnType<typeof data<PlaceReply>>> {
	const { request, params } = args
	const place = await placeOf(params.token)
	const path = href('/waitlist/places/:token', { token: params.token })
	const submission = parseWithZod(await readFormData(request), { schema: PlaceActionSchema })
	if (submission.status !== 'success') return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
	const db = getDb()
	// The password typed for a new account is never sent back.
	const reply: typeof submission.reply = (options) => submission.reply({ ...options, hideFields: ['password'] })
	switch (submission.value.intent) {
		case 'leave': {
			const left = await leaveWaitlist(db, { entryId: place.id })
			return redirectWithToast(
				path,
				left
					? { type: 'success', title: 'You left the waitlist', description: `You are no longer in line for ${place.courseTitle}.` }
					: { type: 'info', title: 'You are no longer on this waitlist' },
			)
		}
		case 'decline': {
			const declined = await declineOffer(db, place.id)
			return redirectWithToast(
				path,
				declined
					? { type: 'success', title: 'Offer declined', description: 'The seat goes to the next person in line.' }
					: { type: 'info', title: 'This offer has already ended' },
			)
		}
		case APPLY_CODE_INTENT: {
			const guessing = await refuseCodeGuessing(request, { reply }, submission.value.promotionCode)
			if (guessing) return guessing
			return previewCode(db, { reply }, { code: submission.value.promotionCode, courseId: place.courseId })
		}
		case 'claim': {
			if (place.status !== 'offered') {
				return redirectWithToast(path, { type: 'error', title: 'This offer has ended', description: 'The seat is no longer held for you.' })
			}
			const guessing = await refuseCodeGuessing(request, { reply }, submission.value.promotionCode)
			if (guessing) return guessing
			return claimOffer(args, place, (options) => submission.reply(options), {
				password: submission.value.password,
				agreementVersionId: submission.value.agreementVersion,
				promotionCode: submission.value.promotionCode ?? null,
			})
		}
	}
}

export default function WaitlistPlacePage({ loaderData, actionData, params }: Route.ComponentProps) {
	return (
		<div className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
			<WaitlistPlacePanel
				{...loaderData}
				path={href('/waitlist/places/:token', { token: params.token })}
				lastResult={actionData?.result}
				preview={actionData?.preview ?? null}
			/>
		</div>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
	...pageTitle(`Your Waitlist Place${loaderData ? ` for ${loaderData.place.courseTitle}` : ''}`),
	{ name: 'robots', content: 'noindex' },
]

export const ErrorBoundary = RegisterErrorBoundary
