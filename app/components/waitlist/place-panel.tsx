import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, href, useNavigation } from 'react-router'
import { ConfirmDialog } from '#app/components/admin/confirm-dialog.tsx'
import { AgreementText } from '#app/components/agreement-text.tsx'
import { AgreementCheckbox } from '#app/components/enrollment-agreement.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { PasswordField } from '#app/components/password-field.tsx'
import { PromotionCodeField } from '#app/components/promotion-code-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import type { AgreementForCourse } from '#app/models/enrollment/agreement.ts'
import { PlaceActionSchema, WAITLIST_STATUS_LABELS } from '#app/models/enrollment/waitlist.ts'
import { APPLY_CODE_INTENT, type PromotionCodePreview } from '#app/models/payments/promotion-codes.ts'
import { formatPrice } from '#app/utils/money.ts'
import type { WaitlistStatus } from '#db/types.ts'

export type PlaceView = {
	courseId: number
	courseTitle: string
	status: WaitlistStatus
	position: number | null
	offerExpiresAt: string | null
	registrationFee: number
	email: string
	name: string
	/** The agreement in force, with an open offer (docs/decisions/043). */
	agreement: AgreementForCourse | null
}

/**
 * A person's place in a course's line, from their e-mail link: where they stand and a way out;
 * with an open offer, the agreement step that claims the seat (or a sign-in, when the address
 * has an account and another or no one is signed in).
 */
export function WaitlistPlacePanel({
	place,
	viewer,
	confirm,
	path,
	lastResult,
	preview,
}: {
	place: PlaceView
	viewer: { signedIn: boolean; signedInAsOwner: boolean; hasAccount: boolean }
	confirm: string | null
	path: string
	lastResult?: SubmissionResult<string[]>
	/** The price with the promotion code Apply priced. */
	preview: PromotionCodePreview | null
}) {
	const coursePath = href('/courses/:id', { id: String(place.courseId) })
	const live = place.status === 'waiting' || place.status === 'offered'
	return (
		<div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
			{confirm === 'leave' && live ? (
				<ConfirmDialog
					title="Leave the waitlist"
					description={`Give up your place in line for ${place.courseTitle}?${place.status === 'offered' ? ' The seat held for you goes to the next person.' : ''}`}
					closeTo={path}
					fields={{ intent: 'leave' }}
					confirmLabel="Leave Waitlist"
					busyLabel="Leaving..."
				/>
			) : null}
			{confirm === 'decline' && place.status === 'offered' ? (
				<ConfirmDialog
					title="Decline the seat"
					description={`Decline the seat held for you in ${place.courseTitle}? It goes to the next person in line.`}
					closeTo={path}
					fields={{ intent: 'decline' }}
					confirmLabel="Decline Seat"
					busyLabel="Declining..."
				/>
			) : null}
			<div className="flex flex-wrap items-start justify-between gap-3">
				<h1 className="text-2xl font-bold text-ink">{place.courseTitle}</h1>
				<Badge tone={place.status === 'offered' ? 'green' : live ? 'yellow' : 'gray'}>{WAITLIST_STATUS_LABELS[place.status]}</Badge>
			</div>
			<div className="mt-4 space-y-3 text-slate-800">
				{place.status === 'waiting' ? (
					<p>
						You are <strong>number {place.position}</strong> in line. When a seat frees up and it is your turn, we e-mail {place.email} a
						link that holds it for you.
					</p>
				) : null}
				{place.status === 'claimed' ? (
					<p>
						You claimed this seat. If your payment is not finished yet,{' '}
						<a href={coursePath} className="text-brand-700 underline">
							go to the course page
						</a>{' '}
						to complete it.
					</p>
				) : null}
				{place.status === 'enrolled' ? (
					<p>
						You are enrolled in this course.{' '}
						<a href={`${href('/dashboard')}?course=${place.courseId}`} className="text-brand-700 underline">
							Go to your course
						</a>
						.
					</p>
				) : null}
				{place.status === 'expired' || place.status === 'declined' || place.status === 'left' || place.status === 'removed' ? (
					<p>
						You are no longer in line for this course.{' '}
						<a href={`${coursePath}?dialog=waitlist`} className="text-brand-700 underline">
							Join the waitlist again
						</a>{' '}
						to take a new place at the end.
					</p>
				) : null}
			</div>
			{place.status === 'offered' && place.offerExpiresAt ? (
				<OfferClaim place={place} viewer={viewer} path={path} lastResult={lastResult} preview={preview} />
			) : null}
			{live ? (
				<div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-end">
					{place.status === 'offered' ? (
						<ButtonLink to={`${path}?confirm=decline`} preventScrollReset variant="outline">
							Decline Seat
						</ButtonLink>
					) : null}
					<ButtonLink to={`${path}?confirm=leave`} preventScrollReset variant="outline">
						Leave Waitlist
					</ButtonLink>
				</div>
			) : null}
		</div>
	)
}

function OfferClaim({
	place,
	viewer,
	path,
	lastResult,
	preview,
}: {
	place: PlaceView
	viewer: { signedIn: boolean; signedInAsOwner: boolean; hasAccount: boolean }
	path: string
	lastResult?: SubmissionResult<string[]>
	preview: PromotionCodePreview | null
}) {
	const navigation = useNavigation()
	const sending = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
	const submitting = sending === 'claim'
	const isFree = place.registrationFee === 0 || preview?.totalCents === 0
	const [form, fields] = useForm({
		id: 'claim-seat',
		lastResult,
		shouldValidate: 'onSubmit',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: PlaceActionSchema }),
	})
	const mustSignIn = !viewer.signedInAsOwner && (viewer.signedIn || viewer.hasAccount)
	return (
		<section aria-labelledby="offer-heading" className="mt-6 space-y-4">
			<div role="status" className="rounded-lg border border-green-200 bg-green-50 p-4 text-sm text-green-900">
				<h2 id="offer-heading" className="font-semibold">
					A seat is held for you
				</h2>
				<p className="mt-1">
					It is yours until <LocalDate value={place.offerExpiresAt ?? ''} time />. Price: {formatPrice(place.registrationFee)}.
				</p>
			</div>
			{mustSignIn ? (
				<div className="space-y-3">
					<p>
						{viewer.signedIn
							? `This offer is for ${place.email}. Log out and sign in with that address to claim it.`
							: `Log in as ${place.email} to claim your seat.`}
					</p>
					{viewer.signedIn ? null : <ButtonLink to={`/login?redirectTo=${encodeURIComponent(path)}`}>Log in to Claim</ButtonLink>}
				</div>
			) : (
				<>
					{form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
					{place.agreement ? <AgreementText html={place.agreement.html} /> : null}
					<Form method="post" action={path} {...getFormProps(form)} className="space-y-4">
						{place.agreement ? <input type="hidden" name="agreementVersion" value={place.agreement.versionId} /> : null}
						{viewer.hasAccount ? null : (
							<>
								<p className="text-sm text-slate-700">
									No account uses {place.email} yet: choose a password and we create one for {place.name}.
								</p>
								<PasswordField
									label="Password"
									errors={fields.password.errors}
									inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'new-password' }}
								/>
							</>
						)}
						{place.registrationFee > 0 ? (
							<PromotionCodeField field={fields.promotionCode} preview={preview} applying={sending === APPLY_CODE_INTENT} />
						) : null}
						<AgreementCheckbox field={fields.agreeToTerms} onAgreedChange={() => {}} />
						<div className="flex justify-end">
							<Button type="submit" name="intent" value="claim" disabled={submitting}>
								{submitting ? 'Processing...' : isFree ? 'Claim Your Seat' : 'Claim and Pay'}
							</Button>
						</div>
					</Form>
				</>
			)}
		</section>
	)
}
