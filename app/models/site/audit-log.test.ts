import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { describeAuditEntry } from './audit-log.ts'

describe('an audit entry in words', () => {
	test('a changed fee reads as money, unchanged values are left out', () => {
		expect(
			describeAuditEntry({
				action: 'course.update',
				details: { before: { title: 'Cohort', registrationFee: 250_000 }, after: { title: 'Cohort', registrationFee: 200_000 } },
			}),
		).toEqual({ summary: 'Course edited', lines: ['Fee: $2,500.00 → $2,000.00'] })
	})

	test('a status change, a refund and an action the page does not know', () => {
		expect(describeAuditEntry({ action: 'enrollment.status', details: { from: 'active', to: 'inactive' } }).lines).toEqual([
			'Status: active → inactive',
		])
		expect(
			describeAuditEntry({ action: 'payment.refund', details: { amountCents: 50_000, reason: 'requested_by_customer', note: null } }),
		).toEqual({ summary: 'Payment refunded', lines: ['Amount: $500.00', 'Reason: requested_by_customer', 'Note: none'] })
		expect(describeAuditEntry({ action: 'something.new', details: null })).toEqual({ summary: 'something.new', lines: [] })
	})

	test('a source alone reads as where it came from, not as a change to nothing', () => {
		expect(
			describeAuditEntry({
				action: 'course.run_again',
				details: { from: { id: 2, title: 'Spring cohort' }, title: 'Autumn cohort', weeks: 4 },
			}).lines,
		).toEqual(['From: id 2, title Spring cohort', 'Title: Autumn cohort', 'Weeks: 4'])
	})

	test('every action the app records has its words', () => {
		const appDir = path.resolve(import.meta.dirname, '../..')
		const recorded = new Set<string>()
		for (const file of fs.readdirSync(appDir, { recursive: true, encoding: 'utf8' })) {
			if (!/\.tsx?$/.test(file) || file.endsWith('.test.ts')) continue
			const source = fs.readFileSync(path.join(appDir, file), 'utf8')
			if (!source.includes('recordAudit')) continue
			for (const [, action] of source.matchAll(/\baction: '([a-z_]+\.[a-z_-]+)'/g)) recorded.add(action!)
		}
		expect(recorded.size).toBeGreaterThan(30)
		expect([...recorded].filter((action) => describeAuditEntry({ action, details: null }).summary === action)).toEqual([])
	})
})
