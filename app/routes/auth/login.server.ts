import { Authenticator } from 'remix-auth'
import { FormStrategy } from 'remix-auth-form'
import { normalizeEmail, verifyLogin } from '#app/models/users.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { clientAddress, hitRateLimit, isRateLimited, RATE_LIMITS, resetRateLimit } from '#app/utils/rate-limit.server.ts'

export class LoginError extends Error {
	readonly code: 'invalid-credentials' | 'email-not-confirmed' | 'rate-limited'
	constructor(code: LoginError['code'], message: string) {
		super(message)
		this.code = code
	}
}

export const LOGIN_MESSAGES = {
	'invalid-credentials': 'Invalid email or password',
	'email-not-confirmed':
		'Your email address has not been confirmed yet. Please check your inbox and click the confirmation link before logging in.',
	'rate-limited': 'Too many failed login attempts. Please wait 15 minutes before trying again.',
} as const

const loginKeys = (email: string, ip: string) => ({ account: `login:account:${normalizeEmail(email)}`, address: `login:ip:${ip}` })

/**
 * Password login. After 5 failures in 15 minutes for an account or a client
 * address, even the right password is refused until the window ends.
 */
export const authenticator = new Authenticator<{ userId: string }>()
authenticator.use(
	new FormStrategy(async ({ form, request }) => {
		const email = String(form.get('email') ?? '')
		const password = String(form.get('password') ?? '')
		const db = getDb()
		const keys = loginKeys(email, clientAddress(request))
		const [account, address] = await Promise.all([
			isRateLimited(db, keys.account, RATE_LIMITS.loginFailures),
			isRateLimited(db, keys.address, RATE_LIMITS.loginFailures),
		])
		if (account.limited || address.limited) throw new LoginError('rate-limited', LOGIN_MESSAGES['rate-limited'])
		const result = await verifyLogin(db, email, password)
		if (!result.ok) {
			if (result.reason === 'invalid-credentials') {
				await Promise.all([
					hitRateLimit(db, keys.account, RATE_LIMITS.loginFailures),
					hitRateLimit(db, keys.address, RATE_LIMITS.loginFailures),
				])
			}
			throw new LoginError(result.reason, LOGIN_MESSAGES[result.reason])
		}
		await resetRateLimit(db, keys.account)
		return { userId: result.userId }
	}),
	'password',
)
