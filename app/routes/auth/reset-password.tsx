import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/reset-password'
import { AuthCard } from '#app/components/auth/auth-card.tsx'
import { PasswordField } from '#app/components/password-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { checkToken, consumeToken, type TokenCheck } from '#app/models/auth-tokens.server.ts'
import { setPassword } from '#app/models/users.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '#app/utils/user-validation.ts'
import { getDb } from '#app/utils/db.server.ts'
import { clearSessionCookie } from '#app/utils/session.server.ts'

const ResetPasswordSchema = z
	.object({
		token: z.string().max(200),
		password: z
			.string({ error: 'Password must be at least 8 characters' })
			.min(MIN_PASSWORD_LENGTH, 'Password must be at least 8 characters')
			.max(MAX_PASSWORD_LENGTH, 'Password is too long'),
		confirmPassword: z.string({ error: "Passwords don't match" }),
	})
	.refine((value) => value.password === value.confirmPassword, {
		message: "Passwords don't match",
		path: ['confirmPassword'],
	})

const TOKEN_ERRORS: Record<Exclude<TokenCheck['status'], 'valid'>, string> = {
	missing: 'Missing authentication information. Please request a new password reset.',
	invalid: 'Invalid session. Please request a new password reset.',
	used: 'Invalid session. Please request a new password reset.',
	expired: 'Your session has expired. Please request a new password reset.',
}

export async function loader({ request }: Route.LoaderArgs) {
	const token = new URL(request.url).searchParams.get('token')
	const check = await checkToken(getDb(), token, 'reset_password')
	if (check.status !== 'valid') return { status: 'invalid' as const, error: TOKEN_ERRORS[check.status], token: null }
	return { status: 'valid' as const, error: null, token }
}

export async function action({ request }: Route.ActionArgs) {
	const formData = await readFormData(request)
	const submission = parseWithZod(formData, { schema: ResetPasswordSchema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }) }, { status: 400 })
	}
	const db = getDb()
	const check = await checkToken(db, submission.value.token, 'reset_password')
	if (check.status !== 'valid' || !(await consumeToken(db, check.tokenId))) {
		const message = TOKEN_ERRORS[check.status === 'valid' ? 'used' : check.status]
		return data({ result: submission.reply({ formErrors: [message], hideFields: ['password', 'confirmPassword'] }) }, { status: 400 })
	}
	// A reset ends every session, including any an attacker may hold.
	await setPassword(db, check.userId, submission.value.password)
	return redirect('/login?notice=password-updated', { headers: { 'Set-Cookie': await clearSessionCookie() } })
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting'
	const [form, fields] = useForm({
		lastResult: actionData?.result,
		constraint: getZodConstraint(ResetPasswordSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
		shouldRevalidate: 'onInput',
	})

	if (loaderData.status === 'invalid') {
		return (
			<AuthCard title="Reset your password">
				<Alert tone="error">{loaderData.error}</Alert>
				<ButtonLink to="/forgot-password" className="w-full">
					Request a new password reset
				</ButtonLink>
			</AuthCard>
		)
	}

	return (
		<AuthCard title="Reset your password" subtitle="Choose a new password of at least 8 characters.">
			{form.errors?.length ? (
				<Alert tone="error">
					{form.errors[0]}{' '}
					<a href="/forgot-password" className="font-semibold underline">
						Request a new password reset
					</a>
				</Alert>
			) : null}
			<Form method="post" {...getFormProps(form)} className="space-y-4">
				<input type="hidden" name="token" value={loaderData.token ?? ''} />
				<PasswordField
					label="New Password"
					inputProps={{ ...getInputProps(fields.password, { type: 'password' }), name: fields.password.name, autoComplete: 'new-password' }}
					errors={fields.password.errors}
				/>
				<PasswordField
					label="Confirm New Password"
					inputProps={{
						...getInputProps(fields.confirmPassword, { type: 'password' }),
						name: fields.confirmPassword.name,
						autoComplete: 'new-password',
					}}
					errors={fields.confirmPassword.errors}
				/>
				<Button type="submit" className="w-full" disabled={busy}>
					{busy ? 'Updating...' : 'Update Password'}
				</Button>
			</Form>
		</AuthCard>
	)
}

export const meta: Route.MetaFunction = () => [
	{ title: 'Reset password | Real Estate Mentorship' },
	{ name: 'description', content: 'Choose a new password for your account.' },
]
