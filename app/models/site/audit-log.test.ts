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
})
