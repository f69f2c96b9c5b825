import { formatMoney } from '#app/utils/money.ts'

/** What the audit log calls each action the app records (issue 39 point 9); an action not named here shows as recorded. */
const ACTION_WORDS: Record<string, string> = {
	'account.delete': 'Account deleted by its owner',
	'agreement.save': 'Agreement saved',
	'announcement.create': 'Announcement sent',
	'announcement.delete': 'Announcement deleted',
	'assignment.create': 'Assignment posted',
	'attendance.import': 'Attendance imported from a meeting report',
	'attendance.mark': 'Attendance marked by hand',
	'certificate.reissue': 'Certificate re-issued',
	'certificate.revoke': 'Certificate revoked',
	'community.hide': 'Community post removed by a moderator',
	'community.lock': 'Community discussion locked',
	'community.pin': 'Community discussion pinned',
	'community.unhide': 'Community post restored by a moderator',
	'community.unlock': 'Community discussion unlocked',
	'community.unpin': 'Community discussion unpinned',
	'contact_submission.read': 'Contact message marked read',
	'course.completion': 'Completion rule applied at the end of the course',
	'course.completion_rule': 'Completion rule saved',
	'course.create': 'Course added',
	'course.delete': 'Course deleted',
	'course.publish': 'Course published',
	'course.run_again': 'Course run again as a draft',
	'course.update': 'Course edited',
	'course_staff.add': 'Instructor added to a course',
	'course_staff.remove': 'Instructor removed from a course',
	'enrollment.create': 'Enrollment added',
	'enrollment.remove': 'Enrollment removed',
	'enrollment.status': 'Enrollment status changed',
	'live_session.cancel': 'Live session cancelled',
	'live_session.move': 'Live session moved',
	'live_session.open': 'Live session opened early',
	'live_session.restore': 'Live session restored',
	'material.delete': 'File deleted',
	'materials.upload': 'Materials uploaded',
	'message.delete': 'Message deleted',
	'message.read': 'Message marked read',
	'message.send': 'Message sent',
	'offer.remove': 'Limited-time offer removed',
	'offer.save': 'Limited-time offer saved',
	'orphans.cleanup': 'Orphaned files removed',
	'payment.refund': 'Payment refunded',
	'payment.refund-failed': 'Refund failed',
	'payment_plan.cancel_rest': 'Rest of a payment plan cancelled',
	'payment_plan.charge_failed': 'Instalment charged in test mode: failed',
	'payment_plan.charge_succeeded': 'Instalment charged in test mode: paid',
	'payment_plan.paid_outside': 'Instalment marked paid outside',
	'payment_plan.pause': 'Payment plan paused',
	'payment_plan.refund': 'Payment plan refunded',
	'payment_plan.resume': 'Payment plan resumed',
	'payment_plan.save': 'Payment plan saved',
	'payment_plan.withdraw': 'Payment plan no longer offered',
	'promotion_code.create': 'Promotion code created',
	'promotion_code.deactivate': 'Promotion code deactivated',
	'promotion_code.over_limit': 'Promotion code used over its limit',
	'school_details.save': 'School details saved',
	'submission.grade': 'Submission graded',
	'user.create': 'User created',
	'user.invite': 'User invited',
	'user.promote': 'User made admin',
	'user.remove': 'User removed',
	'user.role': 'User role changed',
	'waitlist.move': 'Waitlist place moved',
	'waitlist.offer': 'Seat offered from the waitlist',
	'waitlist.offer_hours': 'Offer hold time changed',
	'waitlist.remove': 'Removed from the waitlist',
	'week.delete': 'Week deleted',
	'week.update': 'Week updated',
	'weeks.topics': 'Week topics saved',
}

/** Names of detail keys where the plain words of the key would not do. */
const KEY_WORDS: Record<string, string> = {
	registrationFee: 'Fee',
	from: 'From',
	to: 'To',
	userId: 'User ID',
	courseId: 'Course ID',
	weekId: 'Week ID',
	refundId: 'Refund ID',
	providerRefundId: 'Provider refund ID',
	checkoutSessionId: 'Checkout session',
	taxId: 'Tax ID',
	youtube: 'YouTube link',
	zoomLink: 'Zoom link',
}

/** The change an action of two values reads as one line, e.g. "Status: active → inactive". */
const FROM_TO_WORDS: Record<string, string> = {
	'enrollment.status': 'Status',
	'user.promote': 'Role',
	'user.role': 'Role',
}

function keyWords(key: string) {
	if (KEY_WORDS[key]) return KEY_WORDS[key]
	const words = key
		.replace(/Cents$/, '')
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.toLowerCase()
	return words.charAt(0).toUpperCase() + words.slice(1)
}

function valueWords(key: string, value: unknown): string {
	if (value === null || value === undefined || value === '') return 'none'
	if (typeof value === 'number' && (key.endsWith('Cents') || key === 'registrationFee')) return formatMoney(value)
	if (typeof value === 'boolean') return value ? 'yes' : 'no'
	if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((item) => valueWords('', item)).join(', ')
	if (typeof value === 'object') {
		return Object.entries(value)
			.map(([innerKey, inner]) => `${keyWords(innerKey).toLowerCase()} ${valueWords(innerKey, inner)}`)
			.join(', ')
	}
	return String(value)
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * An audit entry in words: what was done, and one line per change or detail — "Fee: $2,500.00 →
 * $2,000.00" for a value that changed, "Title: Spring cohort" for one that was recorded.
 */
export function describeAuditEntry({ action, details }: { action: string; details: unknown }) {
	const summary = ACTION_WORDS[action] ?? action
	if (!isRecord(details)) return { summary, lines: [] }
	const lines: string[] = []
	const { before, after, from, to, ...rest } = details
	if (isRecord(before) && isRecord(after)) {
		for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
			const was = valueWords(key, before[key])
			const now = valueWords(key, after[key])
			if (was !== now) lines.push(`${keyWords(key)}: ${was} → ${now}`)
		}
	} else {
		if (before !== undefined) rest.before = before
		if (after !== undefined) rest.after = after
	}
	// A change has both ends; a `from` alone names where something came from (Run again's source course).
	if (to !== undefined) lines.push(`${FROM_TO_WORDS[action] ?? 'Change'}: ${valueWords('', from)} → ${valueWords('', to)}`)
	else if (from !== undefined) lines.push(`${keyWords('from')}: ${valueWords('', from)}`)
	for (const [key, value] of Object.entries(rest)) lines.push(`${keyWords(key)}: ${valueWords(key, value)}`)
	return { summary, lines }
}
