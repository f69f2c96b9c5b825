import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import { AuthCard } from '#app/components/auth/auth-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { sendPasswordResetEmail } from '#app/models/accounts/account-emails.server.ts'
import { findUserByEmail, normalizeEmail } from '#app/models/accounts/users.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { consumeRateLimit } from '#app/utils/rate-limit.server.ts'
import { actionToastHeaders, redirectWithToast } from '#app/utils/toast.server.ts'
import { useAuthForm } from './+shared/form.ts'
import { authPageMeta } from './+shared/meta.ts'
import type { Route } from './+types/forgot-password'

const ForgotPasswordSchema = z.object({
	email: z.email({ error: 'Please enter a valid email address' }).max(254),
})

export async function loader({ request }: Route.LoaderArgs) {
	const url = new URL(request.url)
	return { sent: url.searchParams.get('sent') === '1' }
}

export async function action(args: Route.ActionArgs) {
	const formData = await readFormData(args.request)
	const submission = parseWithZod(formData, { schema: ForgotPasswordSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const db = getDb()
	const email = normalizeEmail(submission.value.email)
	try {
		const limit = await consumeRateLimit('accountMail', `reset:${email}`)
		if (!limit.allowed) {
			return data(
				{ result: submission.reply({ formErrors: ['Too many password reset requests. Please wait a few minutes before trying again.'] }) },
				{ status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
			)
		}
		// The answer is the same whether or not the account exists, so the form cannot be used to find accounts.
		const user = await findUserByEmail(db, email)
		if (user) await db.transaction().execute((trx) => sendPasswordResetEmail(trx, { id: user.id, email: user.email, name: user.name }))
	} catch (error) {
		console.error('[forgot-password] the reset e-mail could not be queued:', error instanceof Error ? error.message : error)
		return data(
			{ result: submission.reply({ formErrors: ['Failed to send reset email. Please try again.'] }) },
			{ status: 503, headers: await actionToastHeaders(args, { type: 'error', title: 'Failed to send reset email' }) },
		)
	}
	return redirectWithToast('/forgot-password?sent=1', { type: 'success', title: 'Password reset email sent' })
}

export default function ForgotPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting'
	const [form, fields] = useAuthForm(ForgotPasswordSchema, actionData?.result)

	if (loaderData.sent) {
		return (
			<AuthCard title="Check your email">
				<Alert tone="success" title="Password reset email sent">
					If an account exists for that address, we have sent it a link to reset your password. The link expires in 1 hour.
				</Alert>
				<div className="text-sm text-slate-700">
					<p className="font-semibold">Didn't get the email?</p>
					<ul className="mt-2 list-disc space-y-1 pl-5">
						<li>Check your spam or junk folder.</li>
						<li>Make sure you entered the address you registered with.</li>
						<li>Wait a few minutes: emails can take a little while to arrive.</li>
					</ul>
				</div>
				<ButtonLink to="/forgot-password" variant="outline" className="w-full">
					Try a different email address
				</ButtonLink>
				<BackToLogin />
			</AuthCard>
		)
	}

	return (
		<AuthCard title="Forgot your password?" subtitle="Enter your email address and we'll send you a link to reset your password.">
			{form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
			<Form method="post" {...getFormProps(form)} className="space-y-4">
				<Field
					label="Email"
					inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', autoFocus: true }}
					errors={fields.email.errors}
				/>
				<Button type="submit" className="w-full" disabled={busy}>
					{busy ? 'Sending...' : 'Send reset link'}
				</Button>
			</Form>
			<BackToLogin />
		</AuthCard>
	)
}

function BackToLogin() {
	return (
		<p className="text-center text-sm">
			<Link to="/login" className="font-semibold text-brand-700 hover:underline">
				Back to login
			</Link>
		</p>
	)
}

export const meta: Route.MetaFunction = () => authPageMeta('Forgot password', 'Request a link to reset your password.')
