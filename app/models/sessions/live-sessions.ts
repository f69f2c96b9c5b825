import { href } from 'react-router'
import { safeExternalUrl } from '#app/models/materials/materials.ts'

/**
 * Live sessions as both sides see them (docs/decisions/031): the weekly schedule's form values,
 * time-zone checks, how a session's time reads in a given zone, and the rules of when a join link
 * opens, when a week's files open and when a reminder is due. Isomorphic: times are formatted with
 * the platform's `Intl` time-zone rules, so a session reads the same wherever it is formatted.
 */

/** The join link shows this long before the start (and until the end). */
export const JOIN_OPENS_MINUTES_BEFORE = 15

export const DEFAULT_TIME_ZONE = 'America/New_York'
export const DEFAULT_WEEKS_OPEN_DAYS_BEFORE = 7
export const DEFAULT_REMINDER_FIRST_MINUTES = 24 * 60
export const DEFAULT_REMINDER_SECOND_MINUTES = 60
/** A reminder at most two weeks ahead, at least five minutes. */
export const MAX_REMINDER_MINUTES = 14 * 24 * 60
export const MIN_REMINDER_MINUTES = 5
export const MAX_SESSION_MINUTES = 720
export const MAX_NOTE_LENGTH = 1000

/** ISO weekdays: 1 is Monday. */
export const WEEKDAYS = [
	{ value: 1, name: 'Monday' },
	{ value: 2, name: 'Tuesday' },
	{ value: 3, name: 'Wednesday' },
	{ value: 4, name: 'Thursday' },
	{ value: 5, name: 'Friday' },
	{ value: 6, name: 'Saturday' },
	{ value: 7, name: 'Sunday' },
] as const

/** Whether the platform knows this IANA zone. */
export function isTimeZone(value: string) {
	if (!value || value.length > 64) return false
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: value })
		return true
	} catch {
		return false
	}
}

let zoneNames: readonly string[] | undefined

/** Every IANA zone the platform knows, for a select list (the server's list, so the page is the same with and without scripts). */
export function timeZoneNames(): readonly string[] {
	if (!zoneNames) {
		const names = Intl.supportedValuesOf('timeZone')
		zoneNames = names.includes('UTC') ? names : ['UTC', ...names]
	}
	return zoneNames
}

const FORMATS = {
	abbreviation: { timeZoneName: 'short' },
	genericName: { timeZoneName: 'shortGeneric' },
	clock: { hour: 'numeric', minute: '2-digit', hour12: true },
	day: { weekday: 'short', day: 'numeric', month: 'short' },
	dayOfMonth: { day: 'numeric', month: 'short' },
} satisfies Record<string, Intl.DateTimeFormatOptions>

/**
 * Formatters by kind, locale and zone, made once each: making one costs many times what using it
 * does, and a page formats a time for every session it lists. Zones come from the platform's
 * fixed list (courses and profiles hold only valid ones), so the map stays small.
 */
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(kind: keyof typeof FORMATS, locale: 'en-US' | 'en-GB', timeZone: string) {
	const key = `${kind} ${locale} ${timeZone}`
	let format = formatters.get(key)
	if (!format) {
		format = new Intl.DateTimeFormat(locale, { ...FORMATS[kind], timeZone })
		formatters.set(key, format)
	}
	return format
}

export type SessionStatus = 'scheduled' | 'cancelled'

function part(parts: Intl.DateTimeFormatPart[], type: Intl.DateTimeFormatPartTypes) {
	return parts.find((candidate) => candidate.type === type)?.value ?? ''
}

const OFFSET_NAME = /^GMT[+-]/

/**
 * The zone's abbreviation at that moment: 'EST', 'EDT', 'PST' (American English names them), 'BST',
 * 'CET' (British English does), else the offset ('GMT+9').
 */
function zoneAbbreviation(date: Date, timeZone: string) {
	let name = ''
	for (const locale of ['en-US', 'en-GB'] as const) {
		name = part(formatter('abbreviation', locale, timeZone).formatToParts(date), 'timeZoneName')
		if (!OFFSET_NAME.test(name)) return name
	}
	return name
}

function clockParts(date: Date, timeZone: string) {
	const parts = formatter('clock', 'en-US', timeZone).formatToParts(date)
	return {
		time: `${part(parts, 'hour')}:${part(parts, 'minute')}`,
		period: part(parts, 'dayPeriod').toLowerCase(),
		zone: zoneAbbreviation(date, timeZone),
	}
}

/** 'Tue 13 Jan' in the zone. */
export function formatSessionDay(date: Date, timeZone: string) {
	const parts = formatter('day', 'en-GB', timeZone).formatToParts(date)
	return `${part(parts, 'weekday')} ${part(parts, 'day')} ${part(parts, 'month')}`
}

/** 'Tue 13 Jan, 7:00–8:00 pm EST' in the zone (both periods when they differ: '11:30 am–12:30 pm'). */
export function formatSessionTime(startsAt: Date, endsAt: Date, timeZone: string) {
	const start = clockParts(startsAt, timeZone)
	const end = clockParts(endsAt, timeZone)
	const range =
		start.period === end.period ? `${start.time}–${end.time} ${end.period}` : `${start.time} ${start.period}–${end.time} ${end.period}`
	return `${formatSessionDay(startsAt, timeZone)}, ${range} ${end.zone}`
}

/** '7 pm' or '7:30 pm' for a schedule's 'HH:MM[:SS]' start. */
function formatWallClock(startTime: string) {
	const [hours = 0, minutes = 0] = startTime.split(':').map(Number)
	const period = hours < 12 ? 'am' : 'pm'
	const hour = hours % 12 === 0 ? 12 : hours % 12
	return minutes === 0 ? `${hour} ${period}` : `${hour}:${String(minutes).padStart(2, '0')} ${period}`
}

/** 'ET' or 'PT' where a short generic name exists, else the abbreviation at `at` ('CET', 'GMT+9'). */
function shortZoneName(timeZone: string, at: Date = new Date()) {
	const generic = part(formatter('genericName', 'en-US', timeZone).formatToParts(at), 'timeZoneName')
	return generic && generic.length <= 4 && !OFFSET_NAME.test(generic) ? generic : zoneAbbreviation(at, timeZone)
}

export type CourseSchedule = {
	weekday: number
	/** 'HH:MM' or 'HH:MM:SS', wall clock in `timeZone`. */
	startTime: string
	minutes: number
	timeZone: string
}

/** 'Tuesdays 7 pm ET, 8 sessions from 13 Jan'. */
export function describeSchedule(schedule: CourseSchedule, sessions: { count: number; firstStartsAt: Date | null }) {
	const day = WEEKDAYS.find((weekday) => weekday.value === schedule.weekday)?.name ?? 'Weekly'
	const when = `${day}s ${formatWallClock(schedule.startTime)} ${shortZoneName(schedule.timeZone, sessions.firstStartsAt ?? undefined)}`
	if (sessions.count === 0 || !sessions.firstStartsAt) return when
	const from = formatter('dayOfMonth', 'en-GB', schedule.timeZone).format(sessions.firstStartsAt)
	return `${when}, ${sessions.count} ${sessions.count === 1 ? 'session' : 'sessions'} from ${from}`
}

/** The join link is live from JOIN_OPENS_MINUTES_BEFORE before the start until the end. */
export function joinLinkOpen(session: { startsAt: Date; endsAt: Date; status: SessionStatus }, now: Date) {
	return (
		session.status === 'scheduled' &&
		now.getTime() >= session.startsAt.getTime() - JOIN_OPENS_MINUTES_BEFORE * 60_000 &&
		now.getTime() < session.endsAt.getTime()
	)
}

/**
 * The one answer to "where do students join this week's live session?" (docs/decisions/046): the
 * week's own link when it has one, else the course's meeting link; null when neither is a web
 * address. Every join button, e-mail, calendar entry and admin view resolves the link here.
 */
export function meetingLinkFor({ weekLink, courseLink }: { weekLink: string | null; courseLink: string | null }) {
	return safeExternalUrl(weekLink) ?? safeExternalUrl(courseLink)
}

/**
 * The app's join link of a session: every 'Join' button, e-mail and calendar entry points here, so
 * the join is recorded before the student is sent on to the meeting (docs/decisions/048).
 */
export function sessionJoinPath(sessionId: number) {
	return href('/dashboard/sessions/:liveSessionId/join', { liveSessionId: String(sessionId) })
}

/** When a week's files open: the admin's moment, else the course's days before its session. */
export function weekOpensAt(session: { startsAt: Date; opensAt: Date | null }, daysBefore: number) {
	return session.opensAt ?? new Date(session.startsAt.getTime() - daysBefore * 86_400_000)
}

/**
 * Which reminder (lead time in minutes) is due now for a session, if any: the one whose moment has
 * come most recently, and none once the session has started (a reminder missed while the app was
 * down is sent late, but only before the start).
 */
export function dueReminderLead(startsAt: Date, leads: Array<number | null>, now: Date) {
	if (startsAt <= now) return null
	const due = passedReminderLeads(startsAt, leads, now)
	return due.length ? Math.min(...due) : null
}

/** A reminder up to this late still names its lead time ('in 24 hours'); a later one says the time left. */
export const REMINDER_GRACE_MINUTES = 5

/**
 * The time a reminder names, in minutes: its lead time when it goes on time, else the whole minutes
 * left until the start, down to five (a student who enrols 13½ hours before class reads 'in 13 hours
 * 30 minutes', not 'in 24 hours').
 */
export function reminderMinutesToName(startsAt: Date, lead: number, now: Date) {
	const minutesLeft = Math.floor((startsAt.getTime() - now.getTime()) / 60_000)
	if (lead - minutesLeft <= REMINDER_GRACE_MINUTES) return lead
	return minutesLeft >= 5 ? minutesLeft - (minutesLeft % 5) : Math.max(minutesLeft, 1)
}

/** The lead times whose moment has already come for a session starting at `startsAt`. */
export function passedReminderLeads(startsAt: Date, leads: Array<number | null>, now: Date) {
	const untilStart = startsAt.getTime() - now.getTime()
	return leads.filter((lead): lead is number => lead !== null && lead * 60_000 >= untilStart)
}

/** A session as the admin's list and editor show it, formatted in the course's zone on the server. */
export type AdminSessionView = {
	id: number
	weekNumber: number
	/** The week's topic, or null while the week has no row. */
	topic: string | null
	when: string
	status: SessionStatus
	note: string | null
	rescheduled: boolean
	/** 'Open' or 'Opens Tue 6 Jan, 7:00 pm EST'. */
	opening: string
	openedByAdmin: boolean
	over: boolean
	/** The form's current values: wall-clock date, start and length in the session's zone. */
	date: string
	startTime: string
	minutes: number
	timeZone: string
}

/** 'Tue 6 Jan, 7:00 pm EST' in the zone. */
export function formatMoment(date: Date, timeZone: string) {
	const clock = clockParts(date, timeZone)
	return `${formatSessionDay(date, timeZone)}, ${clock.time} ${clock.period} ${clock.zone}`
}

/** The 'Next live session' card: the next session of the student's courses, in their zone. */
export type NextLiveSession = {
	courseId: number
	courseTitle: string
	weekNumber: number
	topic: string | null
	when: string
	status: SessionStatus
	note: string | null
	/** The app's join link (sessionJoinPath), sent only while it is open (from 15 minutes before until the end) and the week has a call link. */
	joinUrl: string | null
	joinOpensAt: string
	/** When the next session is cancelled, the one after it that takes place. */
	following: { weekNumber: number; when: string } | null
}
