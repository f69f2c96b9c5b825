import { index, layout, prefix, type RouteConfig, route } from '@react-router/dev/routes'

export default [
	layout('routes/public/layout.tsx', [
		index('routes/public/home.tsx'),
		route('about', 'routes/public/about.tsx'),
		route('contact', 'routes/public/contact.tsx'),
		route('faq', 'routes/public/faq.tsx'),
		route('terms', 'routes/public/terms.tsx'),
		route('privacy', 'routes/public/privacy.tsx'),
		route('community', 'routes/public/community.tsx'),
		route('courses', 'routes/public/courses.tsx'),
		route('courses/:id', 'routes/public/course-detail.tsx'),
		route('certificates/:certificateId', 'routes/public/certificate.tsx'),

		// Accounts
		route('login', 'routes/auth/login.tsx'),
		route('forgot-password', 'routes/auth/forgot-password.tsx'),
		route('reset-password', 'routes/auth/reset-password.tsx'),
		route('confirm-email', 'routes/auth/confirm-email.tsx'),
		route('resend-confirmation', 'routes/auth/resend-confirmation.tsx'),
		route('unsubscribe', 'routes/auth/unsubscribe.tsx'),

		// Enrolment
		route('register', 'routes/register/details.tsx'),
		route('register/course', 'routes/register/course.tsx'),
		route('register/agreement', 'routes/register/agreement.tsx'),
		route('waitlist', 'routes/register/waitlist.tsx'),
		route('waitlist/places/:token', 'routes/register/waitlist-place.tsx'),
		route('courses/:id/enroll', 'routes/register/enroll.tsx'),
		route('test-checkout/:sessionId', 'routes/register/test-checkout.tsx'),
		route('registration-complete', 'routes/register/registration-complete.tsx'),

		route('*', 'routes/public/not-found.tsx'),
	]),
	route('dashboard', 'routes/dashboard/layout.tsx', [
		index('routes/dashboard/index.tsx'),
		route('courses', 'routes/dashboard/courses.tsx'),
		route('materials/:itemId', 'routes/dashboard/material-viewer.tsx'),
		route('assignments/:assignmentId', 'routes/dashboard/assignment.tsx'),
		route('messages', 'routes/dashboard/messages.tsx'),
		route('community', 'routes/dashboard/community.tsx'),
		route('settings', 'routes/dashboard/settings.tsx'),
		route('certificates', 'routes/dashboard/certificates.tsx'),
		...prefix('admin', [
			layout('routes/admin/layout.tsx', [
				route('courses', 'routes/admin/courses.tsx', [
					route(':courseId/edit', 'routes/admin/course-edit.tsx'),
					route(':courseId/delete', 'routes/admin/course-delete.tsx'),
				]),
				route('courses/:courseId/waitlist', 'routes/admin/course-waitlist.tsx'),
				route('courses/:courseId/materials', 'routes/admin/course-materials.tsx', [
					route(':weekId/edit', 'routes/admin/week-edit.tsx'),
					route('sessions/:liveSessionId', 'routes/admin/session-edit.tsx'),
				]),
				route('users', 'routes/admin/users.tsx'),
				route('enrollments', 'routes/admin/enrollments.tsx', [
					route('new', 'routes/admin/enrollment-new.tsx'),
					route('payments/:paymentId/refund', 'routes/admin/payment-refund.tsx'),
				]),
				route('promotion-codes', 'routes/admin/promotion-codes.tsx'),
				route('agreement', 'routes/admin/agreement.tsx'),
				route('messages', 'routes/admin/messages/layout.tsx', [
					index('routes/admin/messages/index.tsx'),
					route('broadcast', 'routes/admin/messages/broadcast.tsx'),
					route('direct', 'routes/admin/messages/direct.tsx'),
					route('contact', 'routes/admin/messages/contact.tsx'),
				]),
				route('uploads', 'routes/admin/uploads.tsx'),
				route('grades', 'routes/admin/grades.tsx'),
				route('orphaned-materials', 'routes/admin/orphaned-materials.tsx'),
				route('audit-log', 'routes/admin/audit-log.tsx'),
				route('certificates', 'routes/admin/certificates.tsx'),
			]),
		]),
	]),

	// Resources: no UI of their own
	route('logout', 'routes/auth/logout.ts'),
	route('files/materials/:itemId', 'routes/resources/material-file.ts'),
	route('files/materials/:itemId/preview', 'routes/resources/material-preview.ts'),
	route('files/materials/:itemId/shared', 'routes/resources/material-shared.ts'),
	route('files/attachments/:attachmentId', 'routes/resources/attachment-file.ts'),
	route('files/submissions/:submissionId', 'routes/resources/submission-file.ts'),
	route('files/orphaned-materials', 'routes/resources/orphan-file.ts'),
	route('uploads/materials', 'routes/resources/material-upload.ts'),
	route('calendar/:feed', 'routes/resources/calendar-feed.ts'),
	route('events', 'routes/resources/events.ts'),
	route('webhooks/stripe', 'routes/resources/stripe-webhook.ts'),
	route('unsubscribe/one-click', 'routes/resources/unsubscribe-one-click.ts'),
	route('healthz', 'routes/resources/healthz.ts'),
	route('certificates/:certificateId/credential', 'routes/resources/certificate-credential.ts'),
	route('certificates/status/:list', 'routes/resources/certificate-status-list.ts'),
	route('dashboard/certificates/:certificateId/pdf', 'routes/resources/certificate-pdf.ts'),
	route('.well-known/did.json', 'routes/resources/did-document.ts'),
	route('dev/mailbox', 'routes/resources/mailbox.tsx'),
	route('dev/mailbox/:mailId/html', 'routes/resources/mailbox-html.ts'),
] satisfies RouteConfig
