import { describe, expect, test } from 'vitest'
import {
	assertValidKey,
	assertValidPrefix,
	attachmentKey,
	contentDisposition,
	InvalidStorageKeyError,
	materialKey,
	parseMaterialKey,
	resolveRange,
	safeFileName,
	submissionKey,
} from './keys.ts'

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'

describe('safeFileName', () => {
	test.each([
		['report.pdf', 'report.pdf'],
		['My Report (final).pdf', 'My-Report-final-.pdf'],
		['../../etc/passwd', 'passwd'],
		['C:\\Users\\me\\notes.txt', 'notes.txt'],
		['..', 'file'],
		['a..b', 'a.b'],
		['.env', 'env'],
		['Über Straße.docx', 'Uber-Stra-e.docx'],
		['résumé.pdf', 'resume.pdf'],
		['bad\u0000name\u001f.txt', 'badname.txt'],
		['', 'file'],
		['   ', 'file'],
		['日本語', 'file'],
		['under_score-dash.tar.gz', 'under_score-dash.tar.gz'],
	])('%j → %j', (input, expected) => {
		expect(safeFileName(input)).toBe(expected)
	})

	test('caps the length at 120 characters and keeps the extension', () => {
		const name = safeFileName(`${'a'.repeat(300)}.pdf`)
		expect(name).toHaveLength(120)
		expect(name.endsWith('.pdf')).toBe(true)
	})

	test('never yields something a key would refuse', () => {
		for (const input of ['..', '.', '/', '\\', '.hidden', '-', '...pdf', 'a/../b']) {
			expect(() => assertValidKey(`x/${safeFileName(input)}`)).not.toThrow()
		}
	})
})

describe('key builders', () => {
	test('materialKey carries course, week and category', () => {
		const key = materialKey(12, 34, 'recording', 'Week 1 Intro.mp4')
		expect(key).toMatch(new RegExp(`^courses/12/weeks/34/recording/${uuid}-Week-1-Intro\\.mp4$`))
		expect(parseMaterialKey(key)).toEqual({ courseId: 12, weekId: 34, category: 'recording' })
	})

	test('every key is unique and valid', () => {
		const keys = [
			materialKey(1, 2, 'material', 'a.pdf'),
			materialKey(1, 2, 'material', 'a.pdf'),
			attachmentKey('0b6c1e4e-3a8c-4a4e-9d59-1f2f0f3c9a11', '../x.png'),
			submissionKey(5, '0b6c1e4e-3a8c-4a4e-9d59-1f2f0f3c9a11', 'essay.docx'),
		]
		expect(new Set(keys).size).toBe(keys.length)
		for (const key of keys) expect(() => assertValidKey(key)).not.toThrow()
		expect(keys[2]).toMatch(new RegExp(`^messages/0b6c1e4e-3a8c-4a4e-9d59-1f2f0f3c9a11/${uuid}-x\\.png$`))
		expect(keys[3]).toMatch(new RegExp(`^submissions/5/0b6c1e4e-3a8c-4a4e-9d59-1f2f0f3c9a11/${uuid}-essay\\.docx$`))
	})
})

describe('parseMaterialKey', () => {
	test.each([
		'messages/u/abc-file.pdf',
		'courses/1/weeks/2/other/abc-file.pdf',
		'courses/x/weeks/2/material/abc-file.pdf',
		'courses/1/weeks/2/material/',
		'courses/1/weeks/2/material/a/b.pdf',
		'prefix/courses/1/weeks/2/material/a.pdf',
	])('%j is not a material key', (key) => {
		expect(parseMaterialKey(key)).toBeNull()
	})
})

describe('key validation', () => {
	test.each(['', '/absolute/key', 'a/../b', 'a/..', '..', 'a..b', 'a\\b', 'a\u0000b', 'a\nb', 'a//b', 'a/', 'a/.hidden', 'x'.repeat(1025)])(
		'refuses %j',
		(key) => {
			expect(() => assertValidKey(key)).toThrow(InvalidStorageKeyError)
		},
	)

	test('prefixes may be empty or end with a slash', () => {
		expect(() => assertValidPrefix('')).not.toThrow()
		expect(() => assertValidPrefix('courses/1/')).not.toThrow()
		expect(() => assertValidPrefix('courses/1')).not.toThrow()
		expect(() => assertValidPrefix('/courses')).toThrow(InvalidStorageKeyError)
		expect(() => assertValidPrefix('../')).toThrow(InvalidStorageKeyError)
	})
})

describe('resolveRange', () => {
	test('clamps the end and refuses ranges past the end', () => {
		expect(resolveRange({ start: 0 }, 10)).toEqual({ start: 0, end: 9 })
		expect(resolveRange({ start: 2, end: 4 }, 10)).toEqual({ start: 2, end: 4 })
		expect(resolveRange({ start: 5, end: 100 }, 10)).toEqual({ start: 5, end: 9 })
		expect(() => resolveRange({ start: 10 }, 10)).toThrow(RangeError)
		expect(() => resolveRange({ start: 4, end: 3 }, 10)).toThrow(RangeError)
		expect(() => resolveRange({ start: -1 }, 10)).toThrow(RangeError)
		expect(() => resolveRange({ start: 0 }, 0)).toThrow(RangeError)
	})
})

describe('contentDisposition', () => {
	test('adds an encoded filename* only when the name is not plain ASCII', () => {
		expect(contentDisposition('inline')).toBe('inline')
		expect(contentDisposition('attachment', 'notes.pdf')).toBe('attachment; filename="notes.pdf"')
		expect(contentDisposition('attachment', 'Résumé (1).pdf')).toBe(
			`attachment; filename="R_sum_ (1).pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%281%29.pdf`,
		)
		expect(contentDisposition('inline', 'say "hi".txt')).toBe(`inline; filename="say _hi_.txt"; filename*=UTF-8''say%20%22hi%22.txt`)
	})
})
