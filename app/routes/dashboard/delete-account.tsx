import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link, useNavigation } from 'react-router'
import { ConformPasswordField } from '#app/components/password-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { CheckboxField } from '#app/components/ui/field.tsx'
import { deleteOwnAccount } from '#app/models/accounts/account-deletion.server.ts'
import { DELETION_REFUSALS, DeleteAccountSchema } from '#app/models/accounts/account-deletion.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { SITE_NAME } from '#app/utils/page-meta.ts'
import { clearSelectedCourseCookie } from '#app/utils/selected-course.server.ts'
import { clearSessionCookie } from '#app/utils/session.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/delete-account'

export async function loader({ request }: Route.LoaderArgs) {
	await requireUser(request)
	return null
}

/**
 * Deletes the signed-in person's own account (docs/decisions/067); whose account is never read
 * from the form. A second submit of the same form finds the account gone and answers as the
 * first did.
 */
export async function action({ request }: Route.ActionArgs) {
	const user = await requireUser(request)
	const formData = await readFormData(request)
	const submission = parseWithZod(formData, { schema: DeleteAccountSchema })
	const hideFields = ['password']
	if (submission.status !== 'success') return data({ result: submission.reply({ hideFields }) }, { status: 400 })
	const outcome = await deleteOwnAccount(getDb(), { userId: user.id, password: submission.value.password })
	if (outcome.status === 'refused') {
		const message = DELETION_REFUSALS[outcome.reason]
		const reply =
			outcome.reason === 'wrong-password'
				? submission.reply({ fieldErrors: { password: [message] }, hideFields })
				: submission.reply({ formErrors: [message], hideFields })
		return data({ result: reply }, { status: 400 })
	}
	const headers = new Headers()
	headers.append('Set-Cookie', await clearSessionCookie())
	headers.append('Set-Cookie', await clearSelectedCourseCookie())
	return redirectWithToast(
		'/',
		{ type: 'success', title: 'Your account has been deleted', description: 'You have been signed out everywhere.' },
		{ headers },
	)
}

export default function DeleteAccountPage({ actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	const [form, fields] = useForm({
		id: 'delete-account',
		lastResult: actionData?.result,
		constraint: getZodConstraint(DeleteAccountSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: DeleteAccountSchema }),
		shouldValidate: 'onSubmit',
	})
	return (
		<>
			<h1 className="text-2xl font-bold text-ink">Delete your account</h1>
			<Card>
				<CardHeader>
					<CardTitle>What deleting does</CardTitle>
					<CardDescription>
						This cannot be undone. To keep a copy of your data, use Download my data in{' '}
						<Link to={href('/dashboard/settings')} className="font-medium text-brand-700 underline">
							Settings
						</Link>{' '}
						first.
					</CardDescription>
				</CardHeader>
				<CardContent className="space-y-3 text-sm text-slate-800">
					<p>You are signed out on every device and cannot sign in again. Removed for good:</p>
					<ul className="list-disc space-y-1 pl-5">
						<li>your profile, name, e-mail address and password</li>
						<li>your enrolments in finished courses, your attendance and your certificates (their public pages stop working)</li>
						<li>the work you handed in and its files, and the files you attached to messages</li>
						<li>the messages sent to you, your places on waitlists and your contact-form messages</li>
					</ul>
					<p>Kept, without your name:</p>
					<ul className="list-disc space-y-1 pl-5">
						<li>messages you sent to others, shown as from "Deleted user"; your community posts, shown as from a former member</li>
						<li>payment records, without your name and e-mail address, as accounting law requires</li>
					</ul>
					<p>
						While you are enrolled in a course, paying in instalments or in the middle of a checkout, contact the school to withdraw first.
						The school's only administrator cannot delete their account.
					</p>
				</CardContent>
			</Card>
			<Card>
				<CardHeader>
					<CardTitle>Confirm with your password</CardTitle>
				</CardHeader>
				<CardContent>
					{form.errors?.length ? (
						<Alert tone="error" title="Your account was not deleted" className="mb-4">
							{form.errors[0]}
						</Alert>
					) : null}
					<Form method="post" {...getFormProps(form)} className="max-w-md space-y-4">
						<ConformPasswordField label="Password" field={fields.password} autoComplete="current-password" />
						<CheckboxField
							label="I understand that my account and the data listed above are deleted for good"
							errors={fields.confirm.errors}
							inputProps={{ ...getInputProps(fields.confirm, { type: 'checkbox' }), name: fields.confirm.name }}
						/>
						<div className="flex flex-wrap items-center gap-3">
							<Button type="submit" variant="destructive" disabled={pending}>
								{pending ? 'Deleting...' : 'Delete my account permanently'}
							</Button>
							<Link to={href('/dashboard/settings')} className="text-sm font-medium text-brand-700 underline">
								Cancel
							</Link>
						</div>
					</Form>
				</CardContent>
			</Card>
		</>
	)
}

export const meta: Route.MetaFunction = () => [{ title: `Delete Account | ${SITE_NAME}` }]
