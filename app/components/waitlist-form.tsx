import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useFetcher } from 'react-router'
import { type WaitlistCourse, WaitlistSchema, waitlistDescription } from '#app/models/enrollment/waitlist.ts'
import { useOptionalUser } from '#app/utils/root-data.ts'
import { HoneypotField } from './marketing/honeypot.tsx'
import { NameEmailFields } from './name-email-fields.tsx'
import { Alert } from './ui/alert.tsx'
import { Button, ButtonLink } from './ui/button.tsx'
import { RouteDialog } from './ui/dialog.tsx'
import { Field, TextareaField } from './ui/field.tsx'

export type WaitlistPerson = { name: string; email: string }

export type WaitlistActionData = { result: SubmissionResult<string[]> }

/**
 * The 'Join Our Waitlist' form. It posts to /waitlist through a fetcher, so
 * with JavaScript errors stay in place (a dialog stays open); without it the
 * post renders the /waitlist page with the errors.
 */
export function WaitlistForm({
	course,
	returnTo,
	cancelTo,
	lastResult,
	known,
}: {
	course: WaitlistCourse | null
	/** Where a visitor goes back to after joining (a signed-in user goes to the dashboard). */
	returnTo: string
	cancelTo: string
	lastResult?: SubmissionResult<string[]>
	/** Name and e-mail the visitor already gave (the registration wizard's step 1); else the signed-in user's. */
	known?: WaitlistPerson | null
}) {
	const user = useOptionalUser()
	const person = known ?? user
	const fetcher = useFetcher<WaitlistActionData>({ key: 'waitlist' })
	const submitting = fetcher.state !== 'idle'
	const [form, fields] = useForm({
		id: 'waitlist',
		lastResult: fetcher.data?.result ?? lastResult,
		defaultValue: { name: person?.name ?? '', email: person?.email ?? '' },
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: WaitlistSchema }),
	})

	return (
		<fetcher.Form method="post" action="/waitlist" {...getFormProps(form)} className="relative space-y-4">
			<HoneypotField />
			{course ? <input type="hidden" name="courseId" value={course.id} /> : null}
			<input type="hidden" name="returnTo" value={returnTo} />
			{form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
			<NameEmailFields
				name={fields.name}
				email={fields.email}
				emailFixed={user && !known ? { reason: 'Your place is for the address of the account you are logged in with.' } : undefined}
			/>
			<Field
				label="Phone Number (Optional)"
				errors={fields.phone.errors}
				inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), autoComplete: 'tel', maxLength: 50 }}
			/>
			<TextareaField
				label="Message (Optional)"
				errors={fields.message.errors}
				textareaProps={{ ...getTextareaProps(fields.message), rows: 3, maxLength: 5000 }}
			/>
			<div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
				<ButtonLink to={cancelTo} preventScrollReset variant="outline">
					Cancel
				</ButtonLink>
				<Button type="submit" disabled={submitting}>
					{submitting ? 'Submitting...' : 'Join Waitlist'}
				</Button>
			</div>
		</fetcher.Form>
	)
}

/** The waitlist as a `?dialog=waitlist` state of the page it opens on. */
export function WaitlistDialog({
	course,
	closeTo,
	returnTo,
	known,
}: {
	course: WaitlistCourse | null
	closeTo: string
	returnTo: string
	known?: WaitlistPerson | null
}) {
	return (
		<RouteDialog title="Join Our Waitlist" description={waitlistDescription(course)} closeTo={closeTo}>
			<WaitlistForm course={course} returnTo={returnTo} cancelTo={closeTo} known={known} />
		</RouteDialog>
	)
}
