import { describe, expect, test } from 'vitest'
import { safeRedirectPath } from './safe-redirect.ts'

const SITE = 'https://courses.example'

/** Where a browser on the site goes with this Location (or this href): WHATWG URL parsing is the browser's own. */
const followed = (location: string) => new URL(location, `${SITE}/login`)

/** Characters a Location header cannot carry: the server would refuse to send it (a 500). */
const UNSENDABLE = /[^\t\x20-\x7e\x80-\xff]|[\r\n]/

describe('redirect targets', () => {
	test.each([
		['/dashboard', '/dashboard'],
		['/courses/1?x=y', '/courses/1?x=y'],
		['/dashboard/messages?with=abc#latest', '/dashboard/messages?with=abc#latest'],
		['/a b', '/a%20b'],
		['/café', '/caf%C3%A9'],
		['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
		['/\u0000//evil.example', '/%00//evil.example'],
	])('the same-site path %j is kept (written out as the browser reads it: %j)', (input, expected) => {
		expect(safeRedirectPath(input)).toBe(expected)
	})

	// Each would take a browser to another host, or is no path at all.
	test.each([
		'https://evil.example',
		'//evil.example',
		'/\\evil.example',
		'\\\\evil.example',
		'/\t/evil.example/x',
		'/\n/evil.example/x',
		'/\r\n/evil.example/x',
		'\t//evil.example',
		' //evil.example',
		'/\\/evil.example',
		'/.//evil.example',
		'/./\\evil.example',
		'/%5Cevil.example/../..//evil.example',
		'javascript:alert(1)',
		'http:/evil.example',
		'',
	])('%j gives the fallback', (input) => {
		expect(safeRedirectPath(input, '/dashboard')).toBe('/dashboard')
	})

	test.each([null, undefined])('%j gives the fallback', (input) => {
		expect(safeRedirectPath(input, '/dashboard')).toBe('/dashboard')
	})

	test('a target longer than any path of the app gives the fallback', () => {
		expect(safeRedirectPath(`/${'a'.repeat(2000)}`, '/dashboard')).toBe('/dashboard')
	})

	test('whatever the value, the answer stays on the site after the browser parses it, and can be sent as a header', () => {
		const pieces = [
			'/',
			'//',
			'\\',
			'\t',
			'\n',
			'\r',
			' ',
			'.',
			'..',
			'%2F',
			'%5C',
			'%09',
			'@',
			':',
			'?',
			'#',
			'evil.example',
			'ä',
			'Ā',
			'☃',
			'\u2028',
			'\uff0f',
			'\u0000',
			'\u007f',
		]
		const seen: string[] = []
		for (const first of pieces) {
			for (const second of pieces) {
				for (const third of pieces) {
					const target = safeRedirectPath(`/${first}${second}${third}x`, '/fallback')
					seen.push(target)
					expect(followed(target).origin, JSON.stringify(`/${first}${second}${third}x`)).toBe(SITE)
					expect(target).not.toMatch(UNSENDABLE)
				}
			}
		}
		expect(seen.filter((target) => target !== '/fallback').length).toBeGreaterThan(pieces.length ** 3 / 2)
	})
})
