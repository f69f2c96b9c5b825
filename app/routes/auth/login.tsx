import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { data, Form, href, Link, redirect, useNavigation, useSearchParams } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { z } from 'zod'
import { AuthCard } from '#app/components/auth/auth-card.tsx'
import { ConformPasswordField } from '#app/components/password-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { getUser, startSession } from '#app/utils/auth.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { safeRedirectPath } from '#app/utils/safe-redirect.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { currentPasswordSchema, EmailSchema } from '#app/utils/user-validation.ts'
import { useAuthForm } from './+shared/form.ts'
import { authenticator, LoginError } from './+shared/login.server.ts'
import { trustDeviceCookie } from './+shared/login-limits.server.ts'
import { authPageMeta } from './+shared/meta.ts'
import type { Route } from './+types/login'

const LoginSchema = z.object({
	email: EmailSchema,
	password: currentPasswordSchema('Password is required'),
	redirectTo: z.string().optional(),
})

/** Messages a redirect may ask the login page to show; arbitrary text is never taken from the URL. */
const NOTICES = {
	'password-updated': 'Password updated successfully. Please log in with your new password.',
	'email-confirmed': 'Your email address is confirmed. You can log in now.',
	'confirmation-sent': 'If that account is waiting for confirmation, we have sent a new confirmation link. Please check your inbox.',
} as const

export async function loader({ request }: Route.LoaderArgs) {
	const url = new URL(request.url)
	const redirectTo = safeRedirectPath(url.searchParams.get('redirectTo'), href('/dashboard'))
	if (await getUser(request)) throw redirect(redirectTo)
	const notice = url.searchParams.get('notice')
	return {
		notice: notice && notice in NOTICES ? NOTICES[notice as keyof typeof NOTICES] : null,
		fromProtectedPage: url.searchParams.has('redirectTo'),
	}
}

export async function action({ request }: Route.ActionArgs) {
	const formData = await readFormData(request.clone())
	const submission = parseWithZod(formData, { schema: LoginSchema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: ['password'] }), unconfirmedEmail: null }, { status: 400 })
	}
	try {
		const { userId } = await authenticator.authenticate('password', request)
		const headers = new Headers({ 'Set-Cookie': await startSession(request, userId) })
		headers.append('Set-Cookie', await trustDeviceCookie(request, submission.value.email))
		return redirectWithToast(
			safeRedirectPath(submission.value.redirectTo, href('/dashboard')),
			{ type: 'success', title: 'Login Successful', description: 'Welcome back! Redirecting to dashboard...' },
			{ headers },
		)
	} catch (error) {
		if (!(error instanceof LoginError)) throw error
		return data(
			{
				result: submission.reply({ formErrors: [error.message], hideFields: ['password'] }),
				unconfirmedEmail: error.code === 'email-not-confirmed' ? submission.value.email : null,
			},
			error.code === 'rate-limited' ? { status: 429, headers: { 'Retry-After': String(error.retryAfterSeconds) } } : { status: 400 },
		)
	}
}

export default function LoginPage({ loaderData, actionData }: Route.ComponentProps) {
	const [searchParams] = useSearchParams()
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting' && navigation.formAction?.startsWith('/login') === true
	const [password, setPassword] = useState('')
	const hydrated = useHydrated()
	const [form, fields] = useAuthForm(LoginSchema, actionData?.result)
	const unconfirmedEmail = actionData?.unconfirmedEmail
	const formError = form.errors?.[0]

	return (
		<AuthCard title="Welcome Back" subtitle="Log in to your student dashboard.">
			{loaderData.notice ? <Alert tone="success">{loaderData.notice}</Alert> : null}
			{loaderData.fromProtectedPage ? (
				<Alert tone="warning">You need to be logged in to access that page. Please login first.</Alert>
			) : null}
			<Alert tone="info" title="New to the program?">
				<Link to="/register" className="font-semibold underline">
					Register for an account
				</Link>{' '}
				first. You need to confirm your email address before you can log in.
			</Alert>

			{unconfirmedEmail ? (
				<Alert tone="warning">
					<p>{formError}</p>
					<Form method="post" action="/resend-confirmation" className="mt-2">
						<input type="hidden" name="email" value={unconfirmedEmail} />
						<button type="submit" className="font-semibold underline">
							Resend confirmation email
						</button>
					</Form>
				</Alert>
			) : formError ? (
				<Alert tone="error">{formError || 'Failed to log in'}</Alert>
			) : null}

			<Form method="post" {...getFormProps(form)} className="space-y-4">
				<input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
				<Field
					label="Email"
					inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', autoFocus: true }}
					errors={fields.email.errors}
				/>
				<ConformPasswordField
					label="Password"
					field={fields.password}
					autoComplete="current-password"
					inputProps={{ onChange: (event) => setPassword(event.currentTarget.value) }}
				/>
				<div className="flex justify-end">
					<Link to="/forgot-password" className="text-sm font-medium text-brand-700 hover:underline">
						Forgot password?
					</Link>
				</div>
				<Button type="submit" className="w-full" disabled={busy || (hydrated && password.length === 0)}>
					{busy ? 'Logging in...' : 'Log in'}
				</Button>
			</Form>
			<p className="text-center text-sm text-slate-600">
				Don't have an account?{' '}
				<Link to="/register" className="font-semibold text-brand-700 hover:underline">
					Register
				</Link>
			</p>
		</AuthCard>
	)
}

export const meta: Route.MetaFunction = () => authPageMeta('Log in', 'Log in to your Real Estate Mentorship student dashboard.')
