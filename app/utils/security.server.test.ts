import { describe, expect, test } from 'vitest'
import { contentSecurityPolicy, isCrossSiteRequest } from './security.server.ts'

const headers = (values: Record<string, string>) => new Headers(values)
const allowed = ['http://localhost:3000']

describe('cross-site request refusal', () => {
	test('safe methods always pass', () => {
		expect(isCrossSiteRequest('GET', headers({ 'sec-fetch-site': 'cross-site' }), allowed)).toBe(false)
	})
	test('a POST from another site is refused', () => {
		expect(isCrossSiteRequest('POST', headers({ 'sec-fetch-site': 'cross-site' }), allowed)).toBe(true)
		expect(isCrossSiteRequest('POST', headers({ origin: 'https://evil.example' }), allowed)).toBe(true)
		expect(isCrossSiteRequest('POST', headers({ origin: 'null' }), allowed)).toBe(true)
	})
	test('a POST from the site itself passes', () => {
		expect(isCrossSiteRequest('POST', headers({ 'sec-fetch-site': 'same-origin', origin: 'http://localhost:3000' }), allowed)).toBe(false)
	})
	test('a request without browser headers (not a cookie-carrying browser form) passes', () => {
		expect(isCrossSiteRequest('POST', headers({}), allowed)).toBe(false)
	})
})

describe('content security policy', () => {
	test('scripts need the nonce; plugins, base changes and foreign framing are off', () => {
		const csp = contentSecurityPolicy({ nonce: 'abc', isDevelopment: false })
		expect(csp).toContain("script-src 'self' 'nonce-abc'")
		expect(csp).not.toContain('unsafe-eval')
		expect(csp).toContain("object-src 'none'")
		expect(csp).toContain("base-uri 'none'")
		expect(csp).toContain("frame-ancestors 'self'")
	})
	test('presigned file URLs are allowed when files live in a bucket', () => {
		expect(contentSecurityPolicy({ nonce: 'n', isDevelopment: false, storageOrigin: 'https://files.example' })).toContain(
			"media-src 'self' blob: https://files.example",
		)
	})
})
