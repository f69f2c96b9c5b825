/**
 * Every task of the job system and when the scheduled ones run. A task is a function of
 * (payload, helpers) that calls model or service functions; one file per task area.
 * Cron lines: minute hour day month weekday task (graphile-worker's crontab format).
 */
import type { TaskList } from 'graphile-worker'
import { REPLY_MAIL_TASK } from '#app/models/community/discussions.ts'
import { SEND_CERTIFICATE_TASK } from '#app/models/enrollment/certificates.server.ts'
import { SEND_OFFER_EXPIRED_TASK, SEND_SEAT_OFFER_TASK } from '#app/models/enrollment/seat-offers.server.ts'
import { MAKE_PREVIEW_TASK } from '#app/models/materials/document-previews.server.ts'
import { COURSE_UPDATE_TASK } from '#app/models/materials/materials.ts'
import { EMAIL_ANNOUNCEMENT_TASK } from '#app/models/messaging/messages.server.ts'
import { FOLLOW_PLAN_AT_PROVIDER_TASK } from '#app/models/payments/plan-endings.server.ts'
import { emailAnnouncementTask } from './announcements.server.ts'
import { sendCertificateMail } from './certificates.server.ts'
import { emailCommunityRepliesTask } from './community.server.ts'
import { completeEndedCoursesTask } from './completion.server.ts'
import { emailCourseUpdateTask } from './course-updates.server.ts'
import { makePreview, requestMissingPreviews } from './document-previews.server.ts'
import { announceOpenWeeks, sendSessionReminders } from './live-sessions.server.ts'
import { deliverMail } from './mail.server.ts'
import { chargeDueInstalmentsTask, followPlanAtProviderTask, pauseOverduePlansTask } from './payment-plans.server.ts'
import { sweepAbandonedUploads, sweepExpiredHolds, sweepRateLimitCounters } from './sweeps.server.ts'
import { sendOfferExpiredMail, sendSeatOfferMail, sweepWaitlist } from './waitlist.server.ts'

export const TASKS: TaskList = {
	'deliver-mail': deliverMail,
	'sweep-expired-holds': sweepExpiredHolds,
	'sweep-rate-limits': sweepRateLimitCounters,
	'sweep-abandoned-uploads': sweepAbandonedUploads,
	'sweep-waitlist-offers': sweepWaitlist,
	[SEND_SEAT_OFFER_TASK]: sendSeatOfferMail,
	[SEND_OFFER_EXPIRED_TASK]: sendOfferExpiredMail,
	[MAKE_PREVIEW_TASK]: makePreview,
	'request-missing-previews': requestMissingPreviews,
	[EMAIL_ANNOUNCEMENT_TASK]: emailAnnouncementTask,
	[COURSE_UPDATE_TASK]: emailCourseUpdateTask,
	[SEND_CERTIFICATE_TASK]: sendCertificateMail,
	[REPLY_MAIL_TASK]: emailCommunityRepliesTask,
	'send-session-reminders': sendSessionReminders,
	'announce-open-weeks': announceOpenWeeks,
	'complete-ended-courses': completeEndedCoursesTask,
	'pause-overdue-plans': pauseOverduePlansTask,
	'charge-due-instalments': chargeDueInstalmentsTask,
	[FOLLOW_PLAN_AT_PROVIDER_TASK]: followPlanAtProviderTask,
}

export const CRONTAB = [
	// Retries of mail that could not be sent wait in the outbox (next_attempt_at); a new mail also asks for a delivery at once.
	'* * * * * deliver-mail',
	'* * * * * sweep-expired-holds',
	'* * * * * sweep-waitlist-offers',
	'*/5 * * * * sweep-rate-limits',
	'17 * * * * sweep-abandoned-uploads',
	// Each run queues what is due by then and records it: a late or doubled run neither skips nor repeats a reminder.
	'* * * * * send-session-reminders',
	'* * * * * announce-open-weeks',
	// A course is claimed by the update that marks it evaluated: a doubled or late run completes nobody twice.
	'*/10 * * * * complete-ended-courses',
	// One UPDATE claims each overdue plan: a doubled run pauses nobody twice.
	'*/10 * * * * pause-overdue-plans',
	// The test checkout's instalments of the day; the charge's key and the plan's lock make a doubled run charge nobody twice.
	'*/10 * * * * charge-due-instalments',
].join('\n')
