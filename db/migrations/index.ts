import type { Migration } from 'kysely/migration'
import * as initialSchema from './2026-11-21-0001-initial-schema.ts'
import * as testCheckoutSessions from './2026-11-21-0002-test-checkout-sessions.ts'
import * as publicContentNotifications from './2026-11-21-0003-public-content-notifications.ts'
import * as performanceIndexes from './2026-11-21-0004-performance-indexes.ts'
import * as rateLimits from './2026-11-25-0001-rate-limits.ts'
import * as announcementSubjects from './2026-11-26-0001-announcement-subjects.ts'
import * as documentPreviews from './2026-11-26-0101-document-previews.ts'
import * as mailHeadersAndAttachments from './2026-11-27-0001-mail-headers-and-attachments.ts'
import * as emailPreferences from './2026-11-27-0002-email-preferences.ts'
import * as liveSessions from './2026-11-28-0101-live-sessions.ts'
import * as announcementAudience from './2026-11-28-0201-announcement-audience.ts'
import * as waitlistQueue from './2026-11-28-0301-waitlist-queue.ts'
import * as paymentRefunds from './2026-11-28-0401-payment-refunds.ts'
import * as promotionCodes from './2026-11-28-0501-promotion-codes.ts'
import * as calendarTokenDefault from './2026-11-28-0601-calendar-token-default.ts'
import * as oneOpenCheckout from './2026-11-29-0001-one-open-checkout.ts'
import * as theSchoolsWords from './2026-11-30-0001-the-schools-words.ts'
import * as courseDrafts from './2026-12-01-0001-course-drafts.ts'
import * as courseMeetingLink from './2026-12-01-0101-course-meeting-link.ts'
import * as attendance from './2026-12-01-0301-attendance.ts'
import * as certificates from './2026-12-01-0401-certificates.ts'
import * as materialOpens from './2026-12-02-0101-material-opens.ts'
import * as completionRule from './2026-12-02-0201-completion-rule.ts'
import * as coursePaymentPlans from './2026-12-02-0301-course-payment-plans.ts'
import * as courseStaff from './2026-12-02-0401-course-staff.ts'
import * as mailDedupeKey from './2026-12-03-0001-mail-dedupe-key.ts'
import * as planPurchases from './2026-12-03-0301-plan-purchases.ts'
import * as community from './2026-12-03-0401-community.ts'
import * as instalmentPayments from './2026-12-04-0201-instalment-payments.ts'
import * as planPurchaseDiscounts from './2026-12-04-0301-plan-purchase-discounts.ts'
import * as messagesOfDeletedSenders from './2026-12-04-0601-messages-of-deleted-senders.ts'
import * as attendanceBySession from './2026-12-05-0301-attendance-by-session.ts'

/**
 * Every migration, in order. Listed explicitly so the same list works in the
 * Vite server bundle and in scripts run directly by Node.
 */
export const migrations: Record<string, Migration> = {
	'2026-11-21-0001-initial-schema': initialSchema,
	'2026-11-21-0002-test-checkout-sessions': testCheckoutSessions,
	'2026-11-21-0003-public-content-notifications': publicContentNotifications,
	'2026-11-21-0004-performance-indexes': performanceIndexes,
	'2026-11-25-0001-rate-limits': rateLimits,
	'2026-11-26-0001-announcement-subjects': announcementSubjects,
	'2026-11-26-0101-document-previews': documentPreviews,
	'2026-11-27-0001-mail-headers-and-attachments': mailHeadersAndAttachments,
	'2026-11-27-0002-email-preferences': emailPreferences,
	'2026-11-28-0101-live-sessions': liveSessions,
	'2026-11-28-0201-announcement-audience': announcementAudience,
	'2026-11-28-0301-waitlist-queue': waitlistQueue,
	'2026-11-28-0401-payment-refunds': paymentRefunds,
	'2026-11-28-0501-promotion-codes': promotionCodes,
	'2026-11-28-0601-calendar-token-default': calendarTokenDefault,
	'2026-11-29-0001-one-open-checkout': oneOpenCheckout,
	'2026-11-30-0001-the-schools-words': theSchoolsWords,
	'2026-12-01-0001-course-drafts': courseDrafts,
	'2026-12-01-0101-course-meeting-link': courseMeetingLink,
	'2026-12-01-0301-attendance': attendance,
	'2026-12-01-0401-certificates': certificates,
	'2026-12-02-0101-material-opens': materialOpens,
	'2026-12-02-0201-completion-rule': completionRule,
	'2026-12-02-0301-course-payment-plans': coursePaymentPlans,
	'2026-12-02-0401-course-staff': courseStaff,
	'2026-12-03-0001-mail-dedupe-key': mailDedupeKey,
	'2026-12-03-0301-plan-purchases': planPurchases,
	'2026-12-03-0401-community': community,
	'2026-12-04-0201-instalment-payments': instalmentPayments,
	'2026-12-04-0301-plan-purchase-discounts': planPurchaseDiscounts,
	'2026-12-04-0601-messages-of-deleted-senders': messagesOfDeletedSenders,
	'2026-12-05-0301-attendance-by-session': attendanceBySession,
}
