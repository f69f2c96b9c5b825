import { createCookie } from 'react-router'
import { getEnv } from './env.server.ts'

/**
 * A cookie of this site: signed with SESSION_SECRET, HttpOnly, SameSite=Lax, Path=/; with an
 * https APP_URL also Secure and `__Host-` prefixed. Every cookie the app sets is made here.
 */
export function siteCookie(name: string, { maxAgeSeconds }: { maxAgeSeconds: number }) {
	const env = getEnv()
	return createCookie(env.secureCookies ? `__Host-${name}` : name, {
		path: '/',
		httpOnly: true,
		sameSite: 'lax',
		secure: env.secureCookies,
		secrets: [env.SESSION_SECRET],
		maxAge: maxAgeSeconds,
	})
}
