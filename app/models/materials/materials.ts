import type { DocumentPreviewStatus, EnrollmentStatus, MaterialCategory, MaterialType } from '#db/types.ts'
/** How a material is shown, decided from its stored file name (server-chosen) or its link. Isomorphic. */

export type ViewerKind = 'pdf' | 'image' | 'video' | 'youtube' | 'word' | 'powerpoint' | 'excel' | 'other'

export type OfficeKind = Extract<ViewerKind, 'word' | 'powerpoint' | 'excel'>

const FILE_TYPES: Record<string, { contentType: string; kind: ViewerKind }> = {
	pdf: { contentType: 'application/pdf', kind: 'pdf' },
	jpg: { contentType: 'image/jpeg', kind: 'image' },
	jpeg: { contentType: 'image/jpeg', kind: 'image' },
	png: { contentType: 'image/png', kind: 'image' },
	gif: { contentType: 'image/gif', kind: 'image' },
	mp4: { contentType: 'video/mp4', kind: 'video' },
	webm: { contentType: 'video/webm', kind: 'video' },
	mov: { contentType: 'video/quicktime', kind: 'video' },
	doc: { contentType: 'application/msword', kind: 'word' },
	docx: { contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', kind: 'word' },
	ppt: { contentType: 'application/vnd.ms-powerpoint', kind: 'powerpoint' },
	pptx: { contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', kind: 'powerpoint' },
	xls: { contentType: 'application/vnd.ms-excel', kind: 'excel' },
	xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', kind: 'excel' },
}

const KNOWN_BY_CONTENT_TYPE = new Map(Object.values(FILE_TYPES).map((type) => [type.contentType, type]))

/** The kinds a browser shows by itself: only these are ever served inline. */
const INLINE_KINDS: ReadonlySet<ViewerKind> = new Set(['pdf', 'image', 'video'])

const OFFICE_KINDS: ReadonlySet<ViewerKind> = new Set(['word', 'powerpoint', 'excel'])

export function isOfficeKind(kind: ViewerKind): kind is OfficeKind {
	return OFFICE_KINDS.has(kind)
}

/** The extensions and content types of Office documents, for finding them in SQL. */
export const OFFICE_EXTENSIONS = Object.keys(FILE_TYPES).filter((extension) => OFFICE_KINDS.has(FILE_TYPES[extension]!.kind))
export const OFFICE_CONTENT_TYPES = [...new Set(OFFICE_EXTENSIONS.map((extension) => FILE_TYPES[extension]!.contentType))]

function extensionOf(fileName: string) {
	const dot = fileName.lastIndexOf('.')
	return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : ''
}

/**
 * The file's type: from its extension, else from the stored content type when that is one
 * we know. Anything else is served as an opaque download.
 */
export function fileTypeOf(fileName: string, storedContentType: string | null) {
	const byExtension = FILE_TYPES[extensionOf(fileName)]
	if (byExtension) return byExtension
	const byContentType = storedContentType ? KNOWN_BY_CONTENT_TYPE.get(storedContentType.toLowerCase()) : undefined
	return byContentType ?? { contentType: 'application/octet-stream', kind: 'other' as const }
}

export function isInlineKind(kind: ViewerKind) {
	return INLINE_KINDS.has(kind)
}

/** The name a stored file is offered under: its key's last segment without the unique prefix. */
export function storedFileName(storageKey: string) {
	const last = storageKey.slice(storageKey.lastIndexOf('/') + 1)
	return last.replace(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-/i, '')
}

/** Only http(s) links are ever rendered; anything else (javascript:, data:) counts as no link. */
export function safeExternalUrl(value: string | null | undefined) {
	if (!value) return null
	try {
		const url = new URL(value)
		return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null
	} catch {
		return null
	}
}

const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com'])
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/

/** The video id of a YouTube watch, short, embed or youtu.be link; null for anything else. */
export function youtubeVideoId(value: string | null | undefined) {
	const href = safeExternalUrl(value)
	if (!href) return null
	const url = new URL(href)
	let id: string | null = null
	if (url.hostname === 'youtu.be') id = url.pathname.slice(1)
	else if (YOUTUBE_HOSTS.has(url.hostname)) {
		const [first, second] = url.pathname.split('/').filter(Boolean)
		if (first === 'watch') id = url.searchParams.get('v')
		else if (first === 'embed' || first === 'shorts' || first === 'live') id = second ?? null
	}
	return id && VIDEO_ID.test(id) ? id : null
}

/**
 * The privacy-enhanced embed of a YouTube link, with restricted controls: no related videos
 * from other channels, no keyboard shortcuts, no annotations.
 */
export function youtubeEmbedUrl(value: string | null | undefined) {
	const id = youtubeVideoId(value)
	if (!id) return null
	const params = new URLSearchParams({ rel: '0', modestbranding: '1', disablekb: '1', iv_load_policy: '3', playsinline: '1' })
	return `https://www.youtube-nocookie.com/embed/${id}?${params}`
}

/** The viewer kind of a material item: a stored file by its type, a link by whether YouTube can embed it. */
export function materialKind(item: { storageKey: string | null; mimeType: string | null; fileUrl: string | null }): ViewerKind {
	if (item.storageKey) return fileTypeOf(storedFileName(item.storageKey), item.mimeType).kind
	return youtubeVideoId(item.fileUrl) ? 'youtube' : 'other'
}

export const OFFICE_APPS: Record<OfficeKind, string> = {
	word: 'Microsoft Word',
	powerpoint: 'Microsoft PowerPoint',
	excel: 'Microsoft Excel',
}

export const RECENT_WEEKS = 8
/** `?weeks=all` lists every week of the course. */
export const ALL_WEEKS_PARAM = 'weeks'

export function listsAllWeeks(searchParams: URLSearchParams) {
	return searchParams.get(ALL_WEEKS_PARAM) === 'all'
}

/** Who asks: enough of the session user to decide access (and, for times, their zone). */
export type MaterialReader = { id: string; isAdmin: boolean; timeZone?: string | null }

/** A week's live session as a week card shows it, formatted for the reader on the server. */
export type WeekSession = {
	id: number
	/** 'Tue 13 Jan, 7:00–8:00 pm EST' in the reader's zone. */
	when: string
	status: 'scheduled' | 'cancelled'
	note: string | null
	/** Whether the join link is live now (from 15 minutes before the start until the end). */
	joinOpen: boolean
	/** ISO instant, for an open page to show the link on time. */
	joinOpensAt: string
	/** The session has ended. */
	over: boolean
}

export type MaterialListItem = {
	id: number
	title: string
	type: MaterialType
	kind: ViewerKind
	sizeBytes: number | null
}

export type CourseWeek = {
	id: number
	weekNumber: number
	topic: string
	/** The link to join its live session, an http(s) address or null: the week's own, else the course's (`meetingLinkFor`). */
	zoomLink: string | null
	/** The week's live session, when the course has one for this week. */
	session: WeekSession | null
	/** 'Tue 6 Jan' while the week is not open to students yet; null once open (or without a session). */
	opensOn: string | null
	/** The week is closed to this reader (a student): its files are not listed. */
	filesHidden: boolean
	materials: MaterialListItem[]
	recordings: MaterialListItem[]
}

/**
 * How a reader may use a course (docs/decisions/035): `full` (an admin, an active enrolment) sees
 * everything and takes part; `read-only` (a completed enrolment, an alumnus) keeps the materials and
 * recordings but not the live link or assignment submissions. Other statuses give no access.
 */
export type CourseAccess = 'full' | 'read-only'

/** The access each enrolment status gives; a status missing here gives none. */
export const COURSE_ACCESS_BY_STATUS: Partial<Record<EnrollmentStatus, CourseAccess>> = {
	active: 'full',
	completed: 'read-only',
}

/** The enrolment statuses that can read a course's materials. */
export const READING_STATUSES = Object.keys(COURSE_ACCESS_BY_STATUS) as EnrollmentStatus[]

/** `enrolled`: the reader holds an enrolment (an admin may see courses without one); `readOnly`: an alumnus. */
export type AccessibleCourse = { id: number; title: string; enrolled: boolean; readOnly: boolean }

export type CourseWeekList = {
	weeks: CourseWeek[]
	/** How many weeks the course has, listed or not. */
	totalWeeks: number
}

export type MaterialItemDetail = {
	id: number
	title: string
	type: MaterialType
	category: MaterialCategory
	storageKey: string | null
	mimeType: string | null
	fileUrl: string | null
	sizeBytes: number | null
	previewStatus: DocumentPreviewStatus | null
	/** The stored file the preview state is about; another than storageKey means no preview of the current file yet. */
	previewForKey: string | null
	weekId: number
	weekNumber: number
	topic: string
	courseId: number
	/** When the week opens to students (null: open, no session). */
	opensAt: Date | null
}

/** What a student is told about a file of a week that is not open yet. */
export const WEEK_NOT_OPEN_MESSAGE = 'This week is not open yet'

/** An Office document's PDF preview, as the viewer can use it. */
export function previewStateOf(item: Pick<MaterialItemDetail, 'storageKey' | 'previewStatus' | 'previewForKey'>) {
	if (!item.storageKey || item.previewForKey !== item.storageKey) return 'none'
	if (item.previewStatus === 'ready') return 'ready'
	if (item.previewStatus === 'pending') return 'pending'
	return 'none'
}

export type WeekTab = 'materials' | 'recordings'

/** Each week's tab lives in its own query parameter, so tabs are links that work without JavaScript. */
export function weekTabParam(weekId: number) {
	return `week${weekId}`
}

export function isWeekTabParam(name: string) {
	return /^week\d+$/.test(name)
}

export type ViewerItem = {
	id: number
	title: string
	kind: ViewerKind
	/** The authorizing file route, for stored files. */
	fileUrl: string | null
	downloadUrl: string | null
	/** An http(s) link that is not a stored file (and not YouTube). */
	externalUrl: string | null
	/** The privacy-enhanced YouTube embed. */
	embedUrl: string | null
	/** A short-lived URL of the file that the online office viewer can fetch; null when there is none. */
	officeSourceUrl: string | null
	/** The PDF the server made of an Office document (docs/decisions/028); null until it is ready. */
	previewUrl: string | null
	/** The server is still making that PDF. */
	previewPending: boolean
	/** No document converter runs on this server: an Office file is only downloaded here (docs/decisions/047). */
	previewsOff: boolean
}

/**
 * The job that e-mails a course's news to its students (issue 39 point 6), asked for in the
 * transaction of the change; a job, so the code that makes the change loads no mail template.
 */
export const COURSE_UPDATE_TASK = 'email-course-update'

export type CourseUpdate =
	| { kind: 'assignment-posted'; assignmentId: number }
	| { kind: 'recordings-added'; weekId: number; titles: string[] }
	| { kind: 'submission-graded'; submissionId: number }
