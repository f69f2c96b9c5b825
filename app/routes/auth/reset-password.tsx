import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useNavigation } from 'react-router'
import { z } from 'zod'
import { AuthCard } from '#app/components/auth/auth-card.tsx'
import { NewPasswordFields } from '#app/components/password-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { checkToken, consumeToken, type TokenCheck } from '#app/models/accounts/auth-tokens.server.ts'
import { getUserContact, replacePasswordHash } from '#app/models/accounts/users.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { clearSessionCookie } from '#app/utils/session.server.ts'
import { confirmationMatches, newPasswordSchema } from '#app/utils/user-validation.ts'
import { useAuthForm } from './+shared/form.ts'
import { forgetAccountLoginFailures } from './+shared/login-limits.server.ts'
import { authPageMeta } from './+shared/meta.ts'
import type { Route } from './+types/reset-password'

const ResetPasswordSchema = z
	.object({
		token: z.string().max(200),
		password: newPasswordSchema({ tooLong: 'Password is too long' }),
		confirmPassword: z.string({ error: "Passwords don't match" }),
	})
	.refine(...confirmationMatches("Passwords don't match"))

const TOKEN_ERRORS: Record<Exclude<TokenCheck['status'], 'valid'>, string> = {
	missing: 'Missing authentication information. Please request a new password reset.',
	invalid: 'Invalid session. Please request a new password reset.',
	used: 'Invalid session. Please request a new password reset.',
	expired: 'Your session has expired. Please request a new password reset.',
}

const VALIDATION_FAILED = 'Failed to validate reset session. Please request a new password reset.'
const UNEXPECTED_ERROR = 'An unexpected error occurred. Please try again.'

export async function loader({ request }: Route.LoaderArgs) {
	const token = new URL(request.url).searchParams.get('token')
	let check: TokenCheck
	try {
		check = await checkToken(getDb(), token, 'reset_password')
	} catch (error) {
		console.error('[reset-password] the token could not be checked:', error instanceof Error ? error.message : error)
		return { status: 'invalid' as const, error: VALIDATION_FAILED, token: null }
	}
	if (check.status !== 'valid') return { status: 'invalid' as const, error: TOKEN_ERRORS[check.status], token: null }
	return { status: 'valid' as const, error: null, token }
}

export async function action({ request }: Route.ActionArgs) {
	const formData = await readFormData(request)
	const submission = parseWithZod(formData, { schema: ResetPasswordSchema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }) }, { status: 400 })
	}
	const refuse = (message: string, status: number) =>
		data({ result: submission.reply({ formErrors: [message], hideFields: ['password', 'confirmPassword'] }) }, { status })
	const db = getDb()
	let userId: string
	try {
		const check = await checkToken(db, submission.value.token, 'reset_password')
		if (check.status !== 'valid') return refuse(TOKEN_ERRORS[check.status], 400)
		// Hashed once the token is known to be good; the token is spent only with the new password in place.
		const passwordHash = await hashPassword(submission.value.password)
		const reset = await db.transaction().execute(async (trx) => {
			if (!(await consumeToken(trx, check.tokenId))) return false
			// A reset ends every session, including any an attacker may hold.
			await replacePasswordHash(trx, check.userId, passwordHash)
			return true
		})
		if (!reset) return refuse(TOKEN_ERRORS.used, 400)
		userId = check.userId
	} catch (error) {
		console.error('[reset-password] the password could not be reset:', error instanceof Error ? error.message : error)
		return refuse(UNEXPECTED_ERROR, 503)
	}
	// The reset proves the mailbox: failed logins from unknown browsers no longer stand in the owner's way.
	// The new password is in place whatever happens here.
	await getUserContact(db, userId)
		.then((contact) => contact && forgetAccountLoginFailures(contact.email))
		.catch((error: unknown) =>
			console.error('[reset-password] login failures not forgotten:', error instanceof Error ? error.message : error),
		)
	return redirect('/login?notice=password-updated', { headers: { 'Set-Cookie': await clearSessionCookie() } })
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting'
	const [form, fields] = useAuthForm(ResetPasswordSchema, actionData?.result)

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
				<NewPasswordFields
					password={fields.password}
					confirmPassword={fields.confirmPassword}
					labels={['New Password', 'Confirm New Password']}
				/>
				<Button type="submit" className="w-full" disabled={busy}>
					{busy ? 'Updating...' : 'Update Password'}
				</Button>
			</Form>
		</AuthCard>
	)
}

export const meta: Route.MetaFunction = () => authPageMeta('Reset password', 'Choose a new password for your account.')
