import { Authenticator } from 'remix-auth'
import { FormStrategy } from 'remix-auth-form'
import { verifyLogin } from '#app/models/accounts/users.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { clientAddress } from '#app/utils/rate-limit.server.ts'
import { beginLoginAttempt } from './login-limits.server.ts'

export class LoginError extends Error {
	readonly code: 'invalid-credentials' | 'email-not-confirmed' | 'rate-limited'
	readonly retryAfterSeconds?: number
	constructor(code: LoginError['code'], message: string, retryAfterSeconds?: number) {
		super(message)
		this.code = code
		this.retryAfterSeconds = retryAfterSeconds
	}
}

const LOGIN_MESSAGES = {
	'invalid-credentials': 'Invalid email or password',
	'email-not-confirmed':
		'Your email address has not been confirmed yet. Please check your inbox and click the confirmation link before logging in.',
} as const

/**
 * Password login, within the login limits (login-limits.server.ts): the attempt is counted
 * before the password is checked, and a refused attempt checks nothing.
 */
export const authenticator = new Authenticator<{ userId: string }>()
authenticator.use(
	new FormStrategy(async ({ form, request }) => {
		const email = String(form.get('email') ?? '')
		const password = String(form.get('password') ?? '')
		const attempt = await beginLoginAttempt(request, email, clientAddress(request))
		if (!attempt.allowed) throw new LoginError('rate-limited', attempt.message, attempt.retryAfterSeconds)
		const result = await verifyLogin(getDb(), email, password)
		if (result.ok || result.reason === 'email-not-confirmed') await attempt.passwordWasRight()
		if (!result.ok) throw new LoginError(result.reason, LOGIN_MESSAGES[result.reason])
		return { userId: result.userId }
	}),
	'password',
)
