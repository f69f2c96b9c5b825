import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, redirect } from 'react-router'
import { z } from 'zod'
import { HoneypotField } from '#app/components/marketing/honeypot.tsx'
import { NameEmailFields } from '#app/components/name-email-fields.tsx'
import { NewPasswordFields } from '#app/components/password-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { deleteDraft, emailBlocksRegistration, getDraft, saveDraftDetails } from '#app/models/enrollment/registration.server.ts'
import { EMAIL_TAKEN_MESSAGE, TOO_MANY_REGISTRATIONS_MESSAGE } from '#app/models/enrollment/registration.ts'
import { getUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { HONEYPOT_REFUSAL, isHoneypotFilled } from '#app/utils/honeypot.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { clientAddress, consumeRateLimit } from '#app/utils/rate-limit.server.ts'
import {
	confirmationMatches,
	EmailSchema,
	MAX_PASSWORD_LENGTH,
	NameSchema,
	PASSWORD_TOO_SHORT,
	PasswordSchema,
} from '#app/utils/user-validation.ts'
import { clearDraftCookieHeader, draftCookieHeader, readDraftId } from './+shared/draft-cookie.server.ts'
import {
	RegisterErrorBoundary,
	RegisterFrame,
	registerMeta,
	START_OVER_INTENT,
	STEP_PATH,
	StartOverForm,
	type StepResult,
	useIntentSubmitting,
} from './+shared/wizard.tsx'
import type { Route } from './+types/details'

/**
 * Step 1's fields. Once a draft holds a password (the person came Back from a later step), both
 * password fields may stay blank to keep it: the form never gets the password back to show.
 */
function detailsSchema({ passwordSaved }: { passwordSaved: boolean }) {
	const password = PasswordSchema
	return z
		.object({
			intent: z.literal('details'),
			name: NameSchema,
			email: EmailSchema,
			password: passwordSaved ? password.optional() : password,
			confirmPassword: passwordSaved ? z.string().optional() : z.string({ error: 'Passwords do not match' }),
		})
		.refine(...confirmationMatches('Passwords do not match'))
}

const PASSWORD_FIELDS = ['password', 'confirmPassword']

/** The wizard's steps were once `?step=2` and `?step=3` of this page: such a link goes to its step. */
const OLD_STEP_URLS: Record<string, string> = { '2': STEP_PATH[2], '3': STEP_PATH[3] }

/** Step 1 of registration: name, e-mail and password. */
export async function loader({ request }: Route.LoaderArgs) {
	if (await getUser(request)) throw redirect(href('/dashboard'))
	const params = new URL(request.url).searchParams
	const oldStep = OLD_STEP_URLS[params.get('step') ?? '']
	if (oldStep) {
		params.delete('step')
		throw redirect(params.size > 0 ? `${oldStep}?${params}` : oldStep)
	}
	const draft = await getDraft(getDb(), await readDraftId(request))
	return { details: draft ? { name: draft.name, email: draft.email, accountCreated: draft.userId !== null } : null }
}

/**
 * Validates the details and keeps them in the draft, the password only as its hash. 'Start over'
 * drops the draft: the unfinished account it made may then be registered again with the same e-mail.
 */
export async function action({ request }: Route.ActionArgs) {
	const formData = await readFormData(request)
	if (formData.get('intent') === START_OVER_INTENT) {
		const draftId = await readDraftId(request)
		if (draftId) await deleteDraft(getDb(), draftId)
		return redirect(STEP_PATH[1], { headers: { 'Set-Cookie': await clearDraftCookieHeader() } })
	}
	const db = getDb()
	const draftId = await readDraftId(request)
	const draft = await getDraft(db, draftId)
	// Once step 3 has created the account, its details are settled.
	if (draft?.userId) return redirect(STEP_PATH[2])
	const submission = parseWithZod(formData, { schema: detailsSchema({ passwordSaved: draft !== null }) })
	if (isHoneypotFilled(formData)) {
		return data({ result: submission.reply({ formErrors: [HONEYPOT_REFUSAL], hideFields: PASSWORD_FIELDS }) }, { status: 400 })
	}
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: PASSWORD_FIELDS }) }, { status: 400 })
	}
	const limit = await consumeRateLimit('registrationDetails', clientAddress(request))
	if (!limit.allowed) {
		return data(
			{ result: submission.reply({ formErrors: [TOO_MANY_REGISTRATIONS_MESSAGE], hideFields: PASSWORD_FIELDS }) },
			{ status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
		)
	}
	// An account whose registration was never finished (no payment, no enrolment) may be started over.
	if (await emailBlocksRegistration(db, submission.value.email)) {
		return data(
			{
				result: submission.reply({ fieldErrors: { email: [EMAIL_TAKEN_MESSAGE] }, hideFields: PASSWORD_FIELDS }),
			},
			{ status: 400 },
		)
	}
	const { password } = submission.value
	const savedId = await saveDraftDetails(db, draftId, {
		name: submission.value.name,
		email: submission.value.email,
		passwordHash: password ? await hashPassword(password) : null,
	})
	// The draft ran out between the two pages: its password went with it.
	if (!savedId) {
		return data(
			{ result: submission.reply({ fieldErrors: { password: [PASSWORD_TOO_SHORT] }, hideFields: PASSWORD_FIELDS }) },
			{ status: 400 },
		)
	}
	return redirect(STEP_PATH[2], { headers: { 'Set-Cookie': await draftCookieHeader(savedId) } })
}

export default function DetailsStep({ loaderData, actionData }: Route.ComponentProps) {
	const { details } = loaderData
	const passwordSaved = details !== null && !details.accountCreated
	const schema = detailsSchema({ passwordSaved })
	const lastResult: StepResult = actionData?.result
	const submitting = useIntentSubmitting('details')
	const [form, fields] = useForm({
		id: 'register-details',
		lastResult,
		defaultValue: { name: details?.name ?? '', email: details?.email ?? '' },
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
	})

	if (details?.accountCreated) {
		return (
			<RegisterFrame step={1} title="Your Information" subtitle="Enter your details to continue with registration">
				<Alert tone="info" title="Your account has been created">
					We created the account for {details.name} ({details.email}). Choose your course and complete your payment to finish registering.
					To change your details, start over: the same email address can be used again until you are enrolled.
				</Alert>
				<div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
					<StartOverForm />
					<ButtonLink to={STEP_PATH[2]}>Continue</ButtonLink>
				</div>
			</RegisterFrame>
		)
	}

	return (
		<RegisterFrame step={1} title="Your Information" subtitle="Enter your details to continue with registration">
			{form.errors?.length ? (
				<Alert tone="error" className="mb-4">
					{form.errors[0]}
				</Alert>
			) : null}
			<Form method="post" action="/register" {...getFormProps(form)} className="relative space-y-4">
				<HoneypotField />
				<input type="hidden" name="intent" value="details" />
				<NameEmailFields name={fields.name} email={fields.email} />
				{passwordSaved ? (
					<p id="password-saved" className="rounded-md bg-brand-50 p-3 text-sm text-brand-900">
						Your password is saved. Leave both password fields blank to keep it, or type a new one.
					</p>
				) : null}
				<NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} maxLength={MAX_PASSWORD_LENGTH} />
				<Button type="submit" className="w-full" disabled={submitting}>
					{submitting ? 'Processing...' : 'Continue'}
				</Button>
			</Form>
		</RegisterFrame>
	)
}

export const meta: Route.MetaFunction = registerMeta

export const ErrorBoundary = RegisterErrorBoundary
