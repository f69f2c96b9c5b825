import { createHash } from 'node:crypto'
import { z } from 'zod'
import { normalizeEmail } from '#app/models/accounts/users.server.ts'
import { siteCookie } from '#app/utils/cookies.server.ts'
import { consumeRateLimit, giveBackRateLimit, type RateLimitName, resetRateLimit } from '#app/utils/rate-limit.server.ts'

/**
 * Login limits after rate-limiter-flexible's brute-force pattern (docs/decisions/020-login-limits.md):
 * consecutive failures per account and address, failures per account across all addresses (a
 * separate allowance for browsers the account has signed in from before, so that a stranger
 * cannot lock the owner out), and failures per address. Every attempt takes its points before
 * the password is checked, so attempts that arrive together never check more passwords than
 * the limits allow; an attempt with the right password gives them back.
 */

/** How many accounts one browser remembers as having signed in on it. */
const TRUSTED_ACCOUNTS_PER_DEVICE = 5
const TRUSTED_DEVICE_DAYS = 90

const TrustedAccountsSchema = z.array(z.string().max(64)).max(TRUSTED_ACCOUNTS_PER_DEVICE)

/**
 * Remembers which accounts have signed in on this browser. It holds digests of the e-mail
 * addresses, not the addresses, and is signed, so it cannot be made for an account one cannot
 * sign in to. It survives logout: that is its point.
 */
function trustedDeviceCookie() {
	return siteCookie('trusted-device', { maxAgeSeconds: TRUSTED_DEVICE_DAYS * 24 * 60 * 60 })
}

function accountDigest(account: string) {
	return createHash('sha256').update(account).digest('base64url').slice(0, 22)
}

async function trustedAccounts(request: Request) {
	const parsed = TrustedAccountsSchema.safeParse(await trustedDeviceCookie().parse(request.headers.get('Cookie')))
	return parsed.success ? parsed.data : []
}

/** The Set-Cookie header that adds the account to this browser's trusted ones, after a successful login. */
export async function trustDeviceCookie(request: Request, email: string) {
	const digest = accountDigest(normalizeEmail(email))
	const others = (await trustedAccounts(request)).filter((entry) => entry !== digest)
	return trustedDeviceCookie().serialize([digest, ...others].slice(0, TRUSTED_ACCOUNTS_PER_DEVICE))
}

export type LoginAttempt =
	| { allowed: true; passwordWasRight: () => Promise<void> }
	| { allowed: false; message: string; retryAfterSeconds: number }

/**
 * Takes one point from each limit that applies to this attempt, narrowest first. The first
 * limit that refuses ends the attempt before its password is checked; the points this attempt
 * took from the limits before it are given back (it checked nothing), the refusing limit keeps
 * its point (so that attempts arriving together still count one by one).
 */
export async function beginLoginAttempt(request: Request, email: string, address: string): Promise<LoginAttempt> {
	const account = normalizeEmail(email)
	const trusted = (await trustedAccounts(request)).includes(accountDigest(account))
	const limits: Array<[RateLimitName, string]> = [
		['loginFailuresPerAccountAndAddress', `${account} ${address}`],
		[trusted ? 'loginFailuresPerAccountOnTrustedDevices' : 'loginFailuresPerAccount', account],
		['loginFailuresPerAddress', address],
	]
	const taken: Array<[RateLimitName, string]> = []
	for (const [name, key] of limits) {
		const decision = await consumeRateLimit(name, key)
		if (!decision.allowed) {
			await Promise.all(taken.map(([takenName, takenKey]) => giveBackRateLimit(takenName, takenKey)))
			return { allowed: false, message: refusalMessage(name, decision.retryAfterSeconds), retryAfterSeconds: decision.retryAfterSeconds }
		}
		taken.push([name, key])
	}
	return {
		allowed: true,
		// The right password ends the run of consecutive failures and does not count as a failure anywhere.
		passwordWasRight: async () => {
			const [[consecutive, consecutiveKey], ...others] = limits as [[RateLimitName, string], ...Array<[RateLimitName, string]>]
			await Promise.all([resetRateLimit(consecutive, consecutiveKey), ...others.map(([name, key]) => giveBackRateLimit(name, key))])
		},
	}
}

/** After a password reset (which proves the mailbox) the account's failures from unknown browsers are forgotten. */
export async function forgetAccountLoginFailures(email: string) {
	const account = normalizeEmail(email)
	await Promise.all([
		resetRateLimit('loginFailuresPerAccount', account),
		resetRateLimit('loginFailuresPerAccountOnTrustedDevices', account),
	])
}

function refusalMessage(limit: RateLimitName, retryAfterSeconds: number) {
	const wait = waitText(retryAfterSeconds)
	switch (limit) {
		case 'loginFailuresPerAccount':
			return `Too many failed login attempts for this account. Log in from a device you have used before, reset your password, or try again in ${wait}.`
		case 'loginFailuresPerAddress':
			return `Too many failed login attempts from your network. Please try again in ${wait}.`
		default:
			return `Too many failed login attempts. Please wait ${wait} before trying again.`
	}
}

function waitText(seconds: number) {
	const minutes = Math.max(1, Math.ceil(seconds / 60))
	if (minutes < 120) return minutes === 1 ? '1 minute' : `${minutes} minutes`
	return `${Math.ceil(minutes / 60)} hours`
}
