import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely'

/** A `timestamptz` with a default (now()): an insert may leave it out. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
/** A `timestamptz` without a default: every insert gives it. */
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>
type CreatedAt = ColumnType<Date, Date | string | undefined, never>
/** `date` columns are read as 'YYYY-MM-DD' strings (the drivers are configured so). */
type DateOnly = string

export type Role = 'student' | 'instructor' | 'admin'
export type EnrollmentStatus = 'active' | 'pending' | 'inactive' | 'completed'
export type MaterialCategory = 'material' | 'recording'
export type MaterialType = 'video' | 'document'
export type WaitlistStatus = 'waiting' | 'offered' | 'claimed' | 'enrolled' | 'expired' | 'declined' | 'left' | 'removed'
export type PaymentStatus = 'pending' | 'paid' | 'expired' | 'needs_refund' | 'refunded'

export interface UsersTable {
	id: Generated<string>
	email: string
	password_hash: string
	email_confirmed_at: Date | null
	created_at: CreatedAt
	updated_at: Timestamp
}

export interface ProfilesTable {
	id: string
	name: string
	role: ColumnType<Role | null, Role | null | undefined, Role | null>
	/** Announcements are also e-mailed (Settings, or the one-click unsubscribe link). */
	email_announcements: Generated<boolean>
	/** Reminders before live sessions are e-mailed. */
	email_reminders: Generated<boolean>
	/** The IANA zone the person reads times in; null: each course's own. */
	time_zone: ColumnType<string | null, string | null | undefined, string | null>
	/** The secret of the private calendar-feed URL, replaced on reset; the database makes one for every profile. */
	calendar_token: Generated<string>
	created_at: CreatedAt
	updated_at: Timestamp
}

export interface SessionsTable {
	id: string
	user_id: string
	created_at: CreatedAt
	last_seen_at: Timestamp
	expires_at: Date
	user_agent: string | null
	ip: string | null
}

export interface AuthTokensTable {
	id: Generated<string>
	user_id: string
	purpose: 'confirm_email' | 'reset_password' | 'invite'
	token_hash: string
	expires_at: Date
	used_at: Date | null
	created_at: CreatedAt
}

/** Instructors who teach a course (docs/decisions/055); a trigger keeps it to instructors. */
export interface CourseStaffTable {
	course_id: number
	user_id: string
	added_at: CreatedAt
	added_by: string | null
}

export interface CoursesTable {
	id: Generated<number>
	title: string
	description: Generated<string>
	start_date: DateOnly | null
	end_date: DateOnly | null
	capacity: Generated<number>
	registration_fee: Generated<number>
	/** IANA zone of the course's schedule and sessions. */
	time_zone: Generated<string>
	/** ISO weekday 1 (Monday) … 7 (Sunday); the three schedule columns are all set or all null. */
	schedule_weekday: number | null
	/** Wall-clock start 'HH:MM:SS' in `time_zone`. */
	schedule_start_time: string | null
	schedule_minutes: number | null
	weeks_open_days_before: Generated<number>
	/** Lead times of the two reminders; null turns that one off. */
	reminder_first_minutes: ColumnType<number | null, number | null | undefined, number | null>
	reminder_second_minutes: ColumnType<number | null, number | null | undefined, number | null>
	announce_week_open: Generated<boolean>
	/** How long a waitlist offer holds a freed seat (1–720 hours). */
	waitlist_offer_hours: Generated<number>
	/** What You'll Learn, one outcome per line; null shows the program's own list. */
	outcomes: string | null
	/** The length the course page advertises ('8 weeks'); null follows the schedule, else the program's. */
	duration_text: string | null
	/** The agreement's refund clause for this course; null reads the school's default. */
	refund_terms: string | null
	/** False for a draft (a course made by Run again until the admin publishes it): hidden from all but admins. */
	published: Generated<boolean>
	/** The key of the Run again form that made this course: one copy per submitted form. */
	run_again_key: string | null
	/** The https link every week's live session is joined by unless the week has its own `zoom_link`. */
	meeting_link: string | null
	/** The share of a session (1–100 %) a meeting report must show for present (docs/decisions/048). */
	attendance_present_percent: Generated<number>
	/** Completion rule (docs/decisions/052): the share (0–100 %) of held live sessions attended, present or late. */
	completion_min_attendance_percent: Generated<number>
	completion_requires_all_assignments: Generated<boolean>
	/** The mark (1–100 %) every graded hand-in must reach; null asks for no grade. */
	completion_passing_grade_percent: number | null
	/** When the end-of-course job applied the rule; set once, by the update that claims the course. */
	completion_evaluated_at: Date | null
	created_at: CreatedAt
	updated_at: Timestamp
}

export type PaymentPlanKind = 'deposit' | 'equal'

/** A course's payment plan besides paying in full (docs/decisions/054); one per course. */
export interface CoursePaymentPlansTable {
	course_id: number
	/** False when the admin stopped offering it: its terms and grace days stay for plans already bought. */
	offered: Generated<boolean>
	kind: PaymentPlanKind
	/** Paid at purchase before the instalments; set exactly when `kind` is 'deposit'. */
	deposit_cents: number | null
	/** The monthly instalments (2–6), after the deposit for a 'deposit' plan, from the purchase for an 'equal' one. */
	instalment_count: number
	/** Added to the course's price for paying in instalments. */
	surcharge_cents: Generated<number>
	/** Days a failed instalment leaves access on before it pauses (1–30). */
	grace_days: Generated<number>
	created_at: CreatedAt
	updated_at: Timestamp
}

export type PlanPurchaseStatus = 'pending' | 'expired' | 'active' | 'past_due' | 'paused' | 'completed' | 'cancelled'
export type PlanPauseReason = 'overdue' | 'admin'
export type PlanInstalmentStatus = 'scheduled' | 'paid' | 'failed' | 'paid_outside' | 'cancelled'

/** A plan bought at a checkout (docs/decisions/054, 059): 'pending' until its first payment enrols the buyer. */
export interface PlanPurchasesTable {
	id: Generated<number>
	checkout_session_id: string
	provider: 'stripe' | 'test'
	user_id: string | null
	course_id: number
	enrollment_id: number | null
	kind: PaymentPlanKind
	/** Price + surcharge, less a promotion code's discount: what the instalments add up to (a constraint trigger checks it at commit). */
	total_cents: number
	/** The promotion code as typed at purchase; its discount came off the total (docs/decisions/064). */
	promotion_code: string | null
	discount_cents: Generated<number>
	status: Generated<PlanPurchaseStatus>
	/** When the instalment now overdue first failed; the grace period counts from it. */
	failing_since: Date | null
	/** Set exactly when paused: a payment lifts an 'overdue' pause, never an 'admin' one. */
	pause_reason: PlanPauseReason | null
	provider_subscription_id: string | null
	created_at: CreatedAt
	updated_at: Timestamp
}

/** One scheduled payment of a plan bought, its amount and day snapshotted at purchase. */
export interface PlanInstalmentsTable {
	id: Generated<number>
	plan_purchase_id: number
	/** 1 is the payment at purchase. */
	sequence: number
	is_deposit: Generated<boolean>
	label: string
	due_on: DateOnly
	amount_cents: number
	status: Generated<PlanInstalmentStatus>
	paid_at: Date | null
	failed_at: Date | null
	/** When the student was told this instalment failed: once per instalment. */
	failure_notified_at: Date | null
	provider_invoice_id: string | null
	payment_intent_id: string | null
}

/** Each saved version of the program agreement's template (Markdown with {placeholders}); the newest is in force. */
export interface AgreementVersionsTable {
	id: Generated<number>
	body: string
	created_by: string | null
	created_at: CreatedAt
}

export interface EnrollmentsTable {
	id: Generated<number>
	user_id: string
	course_id: number
	status: Generated<EnrollmentStatus>
	enrollment_date: Timestamp
	/** The agreement version the student accepted; null for enrolments an admin made. */
	agreement_version_id: number | null
	created_at: CreatedAt
	updated_at: Timestamp
}

export interface SeatHoldsTable {
	id: Generated<string>
	course_id: number
	user_id: string
	checkout_session_id: string | null
	/** Where the buyer pays: a repeated purchase submit answers with it (docs/decisions/040). */
	checkout_url: string | null
	/** The agreement version the buyer accepted, recorded on their enrolment at fulfilment. */
	agreement_version_id: number | null
	expires_at: Date
	created_at: CreatedAt
}

export interface RegistrationDraftsTable {
	id: Generated<string>
	name: string
	email: string
	password_hash: string
	course_id: number | null
	has_agreed_to_terms: Generated<boolean>
	user_id: string | null
	created_at: CreatedAt
	updated_at: Timestamp
	expires_at: Date
}

export interface RegistrationPaymentsTable {
	id: Generated<number>
	/** Null for a plan's later instalment, charged off-session without a checkout (plan_instalment_id names it). */
	checkout_session_id: string | null
	provider: 'stripe' | 'test'
	user_id: string | null
	course_id: number | null
	course_title: string
	customer_email: string
	amount_cents: number
	currency: Generated<string>
	status: Generated<PaymentStatus>
	enrollment_id: number | null
	created_at: CreatedAt
	updated_at: Timestamp
	fulfilled_at: Date | null
	/** The provider's payment refunds go against: Stripe's PaymentIntent, the test checkout's session. */
	payment_intent_id: string | null
	/** What has been refunded of amount_cents (succeeded refunds only); never more than was paid. */
	refunded_cents: Generated<number>
	promotion_code_id: number | null
	/** The code as typed when the checkout opened, kept if the code row goes. */
	promotion_code: string | null
	discount_cents: Generated<number>
	/** The plan's instalment this payment paid, after the checkout (docs/decisions/063); its enrolment is its plan's. */
	plan_instalment_id: number | null
}

export type RefundReason = 'requested_by_customer' | 'duplicate' | 'fraudulent'
export type RefundStatus = 'pending' | 'succeeded' | 'failed'

export interface PaymentRefundsTable {
	id: Generated<number>
	payment_id: number
	amount_cents: number
	reason: RefundReason
	/** The admin's words, shown to the student and in the audit log. */
	note: Generated<string>
	status: Generated<RefundStatus>
	/** 'admin': made from the admin area; 'provider': found at the provider (its dashboard). */
	source: 'admin' | 'provider'
	/** A partial refund the admin chose to end the enrolment with. */
	unenroll: Generated<boolean>
	/** The admin form's one-time key: a resent form is the same refund. */
	request_key: string | null
	provider_refund_id: string | null
	actor_id: string | null
	failure_message: string | null
	created_at: CreatedAt
	updated_at: Timestamp
}

export interface TestCheckoutRefundsTable {
	id: string
	session_id: string
	amount_cents: number
	reason: string
	metadata: ColumnType<Record<string, string>, string | undefined, string>
	idempotency_key: string
	created_at: CreatedAt
}

export interface PromotionCodesTable {
	id: Generated<number>
	/** Upper case, unique. */
	code: string
	percent_off: number | null
	amount_off_cents: number | null
	/** Null: any course. */
	course_id: number | null
	expires_at: Date | null
	max_uses: number | null
	deactivated_at: Date | null
	/** Stripe's promotion code for it, created the first time a Stripe checkout uses it. */
	stripe_promotion_code_id: string | null
	created_by: string | null
	created_at: CreatedAt
}

/** `over_limit`: paid after its reservation lapsed, with the code used up meanwhile (docs/decisions/040). */
export type PromotionCodeRedemptionStatus = 'reserved' | 'redeemed' | 'over_limit'

export interface PromotionCodeRedemptionsTable {
	id: Generated<number>
	promotion_code_id: number
	user_id: string | null
	course_id: number | null
	status: PromotionCodeRedemptionStatus
	/** A reservation lives exactly as long as this seat hold (ON DELETE CASCADE). */
	seat_hold_id: string | null
	enrollment_id: number | null
	checkout_session_id: string | null
	price_cents: number
	discount_cents: number
	created_at: CreatedAt
	redeemed_at: Date | null
}

export interface TestCheckoutSessionsTable {
	id: string
	amount_cents: number
	currency: Generated<string>
	description: string
	customer_email: string
	metadata: ColumnType<Record<string, string>, string | undefined, string>
	status: Generated<'open' | 'complete' | 'expired'>
	payment_status: Generated<'unpaid' | 'paid'>
	success_url: string
	cancel_url: string
	expires_at: Date
	created_at: CreatedAt
	completed_at: Date | null
	/** Before the discount; null when none was given. */
	amount_subtotal_cents: number | null
	discount_cents: Generated<number>
	promotion_code: string | null
	/** A repeated creation with the same key returns this session, as Stripe's idempotency keys do. */
	idempotency_key: string | null
}

export interface CourseMaterialsTable {
	id: Generated<number>
	course_id: number
	week_number: number
	topic: string
	zoom_link: string | null
	created_at: CreatedAt
	updated_at: Timestamp
}

export type LiveSessionStatus = 'scheduled' | 'cancelled'

export interface LiveSessionsTable {
	id: Generated<number>
	course_id: number
	/** The course week (course_materials.week_number) this is the session of. */
	week_number: number
	starts_at: RequiredTimestamp
	ends_at: RequiredTimestamp
	time_zone: string
	status: Generated<LiveSessionStatus>
	note: ColumnType<string | null, string | null | undefined, string | null>
	/** Counts changes, for calendar clients (iCalendar SEQUENCE). */
	sequence: Generated<number>
	/** Moved one by one by an admin: a new course schedule leaves it where it is. */
	rescheduled: Generated<boolean>
	/** When the week's files open, set by an admin ('open now' or a date); null: the course's days before. */
	opens_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
	open_notice_sent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
	created_at: CreatedAt
	updated_at: Timestamp
}

export type AttendanceStatus = 'present' | 'late' | 'absent' | 'excused'
export type AttendanceSource = 'join_link' | 'report' | 'hand'

/** The first time a student went through the app's join link of a session (docs/decisions/048). */
export interface SessionJoinsTable {
	live_session_id: number
	user_id: string
	joined_at: CreatedAt
}

/** One status per live session and student; a hand-set one wins over a report, a report over the join link. */
export interface AttendanceTable {
	live_session_id: number
	user_id: string
	status: AttendanceStatus
	/** Minutes in the meeting, when a report gave them. */
	minutes: number | null
	source: AttendanceSource
	/** The admin who imported the report or marked it; null for the join link. */
	set_by: string | null
	created_at: CreatedAt
	updated_at: Timestamp
}

/** What a report import would write, kept between its preview and its confirmation. */
export type AttendanceImportPlan = {
	/** Participant rows read from the file. */
	rows: number
	/** Every student of the roster when the file was read, with the status the report gives. */
	students: Array<{ userId: string; status: AttendanceStatus; minutes: number; matchedBy: 'email' | 'name' | null }>
	/** Rows that matched no student: the line in the file, the name and e-mail as written, the minutes. */
	unmatched: Array<{ line: number; name: string; email: string; minutes: number }>
}

export interface AttendanceImportsTable {
	id: Generated<string>
	live_session_id: number
	created_by: string | null
	file_name: string
	plan: ColumnType<AttendanceImportPlan, string, never>
	applied_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
	created_at: CreatedAt
}

export interface SessionRemindersTable {
	session_id: number
	user_id: string
	lead_minutes: number
	starts_at: Date
	sent_at: CreatedAt
}

export interface MaterialItemsTable {
	id: Generated<number>
	material_id: number
	title: string
	type: MaterialType
	category: MaterialCategory
	file_url: string | null
	storage_key: string | null
	mime_type: string | null
	size_bytes: number | null
	/** The PDF preview of an Office document (docs/decisions/028), for the file `preview_for_key` names. */
	preview_status: DocumentPreviewStatus | null
	preview_for_key: string | null
	created_at: CreatedAt
	updated_at: Timestamp
}

/** The first time an enrolled student opened a material or recording (docs/decisions/051): one row per pair. */
/** A discussion of a course's community (docs/decisions/060); its text is its opening post. */
export interface CommunityThreadsTable {
	id: Generated<number>
	course_id: number
	author_id: string | null
	title: string
	/** The author asked to be e-mailed about replies. */
	notify_replies: Generated<boolean>
	pinned: Generated<boolean>
	locked: Generated<boolean>
	/** The form's one-time key: the same form sent twice makes one thread. */
	submission_key: string
	last_activity_at: Generated<Date>
	/** When the author was last e-mailed about replies, and the last reply that mail covered. */
	replies_mailed_at: Date | null
	replies_mailed_through: Generated<number>
	created_at: CreatedAt
}

/** A thread's opening post or a reply; hidden by a moderator or deleted by its author, it keeps its place. */
export interface CommunityPostsTable {
	id: Generated<number>
	thread_id: number
	author_id: string | null
	body: string
	opening: Generated<boolean>
	submission_key: string
	created_at: CreatedAt
	edited_at: Date | null
	hidden_at: Date | null
	hidden_by: string | null
	deleted_at: Date | null
}

export interface MaterialOpensTable {
	user_id: string
	material_item_id: number
	first_opened_at: CreatedAt
}

export type DocumentPreviewStatus = 'pending' | 'ready' | 'failed' | 'unavailable'

/** A place in a course's waitlist queue (docs/decisions/034); ended entries stay as the record. */
export interface WaitlistEntriesTable {
	id: Generated<number>
	course_id: number
	user_id: string | null
	/** The inbox entry the request also made. */
	contact_submission_id: number | null
	name: string
	email: string
	/** Order within the course; the shown position counts the waiting entries up to it. */
	position: number
	status: Generated<WaitlistStatus>
	/** The person's link to their entry (confirmation e-mail): only its hash is stored. */
	token_hash: string
	/** The link of the current or last offer. */
	offer_token_hash: string | null
	offered_at: Date | null
	offer_expires_at: Date | null
	joined_at: CreatedAt
	updated_at: Timestamp
}

export interface ContactSubmissionsTable {
	id: Generated<number>
	kind: Generated<'contact' | 'waitlist'>
	name: string
	email: string
	phone: string | null
	message: string
	program: string | null
	read: Generated<boolean>
	created_at: CreatedAt
}

export interface MessagesTable {
	id: Generated<number>
	/** Null once the sender deleted their own account: the message stays, from "Deleted user" (docs/decisions/067). */
	sender_id: string | null
	receiver_id: string | null
	content: Generated<string>
	/** An announcement's subject; null on direct messages and on announcements stored as 'subject: message' before it existed. */
	subject: ColumnType<string | null, string | null | undefined, string | null>
	is_announcement: Generated<boolean>
	/** An announcement for one course's students; null: for every student (and on direct messages). */
	course_id: ColumnType<number | null, number | null | undefined, number | null>
	/** When the announcement's e-mails were queued in the outbox; null until then (and on direct messages). */
	emailed_at: ColumnType<Date | null, Date | null | undefined, Date | null>
	read: Generated<boolean>
	created_at: CreatedAt
}

export interface MessageAttachmentsTable {
	id: Generated<number>
	message_id: number
	name: string
	type: string
	size_bytes: number
	storage_key: string
	created_at: CreatedAt
}

export interface SiteSettingsTable {
	key: string
	value: ColumnType<unknown, string, string>
	updated_at: Timestamp
	updated_by: string | null
}

export interface AssignmentsTable {
	id: Generated<number>
	course_id: number
	week_id: number | null
	title: string
	instructions: Generated<string>
	due_at: Date | null
	created_by: string | null
	created_at: CreatedAt
	updated_at: Timestamp
}

export interface AssignmentSubmissionsTable {
	id: Generated<number>
	assignment_id: number
	student_id: string
	body: string | null
	file_name: string | null
	file_type: string | null
	file_size: number | null
	storage_key: string | null
	status: Generated<'submitted' | 'graded'>
	grade: string | null
	feedback: string | null
	submitted_at: Timestamp
	graded_at: Date | null
	graded_by: string | null
}

/** rate-limiter-flexible's counters (app/utils/rate-limit.server.ts); `expire` in Unix milliseconds. */
export interface RateLimitsTable {
	key: string
	points: Generated<number>
	expire: number | null
}

/** A small text attachment of a queued mail (a calendar file). */
export type MailAttachmentRow = { filename: string; contentType: string; content: string }

export interface EmailOutboxTable {
	id: Generated<number>
	to_address: string
	subject: string
	text_body: string
	html_body: string | null
	/** Extra headers (List-Unsubscribe …), name → value. */
	headers: ColumnType<Record<string, string>, string | undefined, string>
	attachments: ColumnType<MailAttachmentRow[], string | undefined, string>
	status: Generated<'pending' | 'sent' | 'failed'>
	attempts: Generated<number>
	last_error: string | null
	next_attempt_at: Timestamp
	created_at: CreatedAt
	sent_at: Date | null
	/** Set on mail a job queues: the outbox takes each key once, so a job run twice mails once. */
	dedupe_key: string | null
}

export interface AuditLogTable {
	id: Generated<number>
	actor_id: string | null
	action: string
	entity: string
	entity_id: string | null
	details: ColumnType<unknown, string | undefined, never>
	created_at: CreatedAt
}

/** A certificate as issued (docs/decisions/049): what it states is a snapshot, the credential signed then. */
export interface CertificatesTable {
	/** Random, unguessable: the key of the public verify page. */
	id: string
	enrollment_id: number | null
	user_id: string
	course_id: number | null
	recipient_name: string
	course_title: string
	course_start_date: DateOnly | null
	course_end_date: DateOnly | null
	/** Live minutes attended when issued; null when not known. */
	live_minutes: number | null
	/** Its bit in the revocation status list. */
	status_index: Generated<number>
	/** The Open Badges 3.0 credential as a compact JWS (VC-JOSE). */
	credential: string
	/** The student lets search engines index the verify page. */
	is_public: Generated<boolean>
	issued_at: Timestamp
	revoked_at: Date | null
	revoked_reason: string | null
}

export interface Database {
	users: UsersTable
	profiles: ProfilesTable
	sessions: SessionsTable
	auth_tokens: AuthTokensTable
	courses: CoursesTable
	course_payment_plans: CoursePaymentPlansTable
	plan_purchases: PlanPurchasesTable
	plan_instalments: PlanInstalmentsTable
	course_staff: CourseStaffTable
	agreement_versions: AgreementVersionsTable
	enrollments: EnrollmentsTable
	seat_holds: SeatHoldsTable
	registration_drafts: RegistrationDraftsTable
	registration_payments: RegistrationPaymentsTable
	promotion_codes: PromotionCodesTable
	promotion_code_redemptions: PromotionCodeRedemptionsTable
	test_checkout_sessions: TestCheckoutSessionsTable
	payment_refunds: PaymentRefundsTable
	test_checkout_refunds: TestCheckoutRefundsTable
	course_materials: CourseMaterialsTable
	live_sessions: LiveSessionsTable
	session_reminders: SessionRemindersTable
	session_joins: SessionJoinsTable
	attendance: AttendanceTable
	attendance_imports: AttendanceImportsTable
	material_items: MaterialItemsTable
	material_opens: MaterialOpensTable
	contact_submissions: ContactSubmissionsTable
	waitlist_entries: WaitlistEntriesTable
	messages: MessagesTable
	message_attachments: MessageAttachmentsTable
	site_settings: SiteSettingsTable
	assignments: AssignmentsTable
	assignment_submissions: AssignmentSubmissionsTable
	rate_limits: RateLimitsTable
	email_outbox: EmailOutboxTable
	audit_log: AuditLogTable
	certificates: CertificatesTable
	community_threads: CommunityThreadsTable
	community_posts: CommunityPostsTable
}

export type Course = Selectable<CoursesTable>
export type NewCourse = Insertable<CoursesTable>
export type CourseUpdate = Updateable<CoursesTable>
export type Profile = Selectable<ProfilesTable>
export type User = Selectable<UsersTable>
export type Enrollment = Selectable<EnrollmentsTable>
export type ContactSubmission = Selectable<ContactSubmissionsTable>
