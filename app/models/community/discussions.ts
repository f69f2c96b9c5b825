import { z } from 'zod'
import { hasControlCharacters } from '#app/utils/misc.ts'

/** A course's community (docs/decisions/060): discussions, members and events, as tabs of one page. */
export const COMMUNITY_TABS = ['discussions', 'members', 'events'] as const
export type CommunityTab = (typeof COMMUNITY_TABS)[number]
export const TAB_PARAM = 'tab'

/** The tab a `?tab=` names; discussions when missing or unknown. */
export function communityTab(params: URLSearchParams): CommunityTab {
	const value = params.get(TAB_PARAM)
	return COMMUNITY_TABS.find((tab) => tab === value) ?? 'discussions'
}

/** The job that e-mails a discussion's author its new replies, and how often at most (docs/decisions/060). */
export const REPLY_MAIL_TASK = 'email-community-replies'
export const REPLY_MAIL_INTERVAL_MS = 60 * 60 * 1000

export const THREADS_PER_PAGE = 20
export const POSTS_PER_PAGE = 20
export const MAX_TITLE_LENGTH = 200
export const MAX_POST_LENGTH = 10_000

/** The spec's message for the Start Discussion form, said of either field when it is empty. */
export const FILL_IN_ALL_FIELDS = 'Please fill in all fields'
export const EMPTY_REPLY = 'Please write a reply'
export const POST_TOO_LONG = `Please keep a post under ${MAX_POST_LENGTH.toLocaleString('en-US')} characters`
export const HIDDEN_POST_TEXT = 'Removed by a moderator'
export const DELETED_POST_TEXT = 'Deleted by its author'

/** What a person may do in a course's community; null (not a member) is answered 404. */
export type CommunityRole = 'moderator' | 'member' | 'alumnus'
export type CommunityAccess = { role: CommunityRole; canPost: boolean; canModerate: boolean }

export function accessOf(role: CommunityRole): CommunityAccess {
	return { role, canPost: role !== 'alumnus', canModerate: role === 'moderator' }
}

/** A text of the community: control characters refused (line breaks and tabs kept in a post), cut to `max`. */
function communityText(max: number, empty: string, tooLong: string, { lineBreaks }: { lineBreaks: boolean }) {
	return z
		.string({ error: empty })
		.trim()
		.min(1, empty)
		.max(max, tooLong)
		.refine((text) => !hasControlCharacters(text, { lineBreaks }), 'Please remove the control characters from the text')
}

const postBody = (empty: string) => communityText(MAX_POST_LENGTH, empty, POST_TOO_LONG, { lineBreaks: true })

/** The form's one-time key (the same form sent twice makes one post): a UUID the page wrote into it. */
const SubmissionKeySchema = z.uuid({ error: 'This form has expired. Please reload the page and try again.' })

export const StartDiscussionSchema = z.object({
	intent: z.literal('start'),
	submissionKey: SubmissionKeySchema,
	title: communityText(MAX_TITLE_LENGTH, FILL_IN_ALL_FIELDS, `Please keep the title under ${MAX_TITLE_LENGTH} characters`, {
		lineBreaks: false,
	}),
	content: postBody(FILL_IN_ALL_FIELDS),
	notifyReplies: z.literal('on').optional(),
})

export const ReplySchema = z.object({
	intent: z.literal('reply'),
	submissionKey: SubmissionKeySchema,
	content: postBody(EMPTY_REPLY),
})

export const EditPostSchema = z.object({
	intent: z.literal('edit'),
	postId: z.string(),
	content: postBody('Please write something, or delete the post instead'),
})

export type PostPart = { kind: 'text'; text: string } | { kind: 'link'; href: string; text: string } | { kind: 'break' }

/** Web addresses in a post; trailing punctuation that ends a sentence is left out of the link. */
const LINK_PATTERN = /\bhttps?:\/\/[^\s<>"']+/gi
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/

/**
 * A post's text as parts to render: plain text, links (http and https only) and line breaks. The
 * page renders the parts as React text and `<a>` elements, so nothing a user writes becomes HTML.
 */
export function postParts(body: string): PostPart[] {
	const parts: PostPart[] = []
	const lines = body.split(/\r\n|\r|\n/)
	lines.forEach((line, index) => {
		if (index > 0) parts.push({ kind: 'break' })
		let last = 0
		for (const match of line.matchAll(LINK_PATTERN)) {
			const url = match[0].replace(TRAILING_PUNCTUATION, '')
			const start = match.index
			if (start > last) parts.push({ kind: 'text', text: line.slice(last, start) })
			parts.push({ kind: 'link', href: url, text: url })
			last = start + url.length
		}
		if (last < line.length) parts.push({ kind: 'text', text: line.slice(last) })
	})
	return parts
}

export type ThreadListItem = {
	id: number
	title: string
	authorName: string
	pinned: boolean
	locked: boolean
	/** The opening post was hidden or deleted: the list shows that instead of the title. */
	removed: 'hidden' | 'deleted' | null
	replyCount: number
	lastActivityAt: Date
	createdAt: Date
}

export type PostView = {
	id: number
	authorId: string | null
	authorName: string
	authorRole: MemberRole
	opening: boolean
	/** Null when hidden or deleted: the text is not sent to the page. */
	body: string | null
	removed: 'hidden' | 'deleted' | null
	createdAt: Date
	editedAt: Date | null
}

export type MemberRole = 'Student' | 'Alumnus' | 'Instructor' | 'Admin'

export type Member = { id: string; name: string; role: MemberRole; email: string | null }
