import { randomUUID } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, useNavigation } from 'react-router'
import { CommunityTabs } from '#app/components/community/community-tabs.tsx'
import { EventsList } from '#app/components/community/events-list.tsx'
import { MembersList } from '#app/components/community/members-list.tsx'
import { StartDiscussionForm } from '#app/components/community/start-discussion-form.tsx'
import { ThreadList } from '#app/components/community/thread-list.tsx'
import { useLiveRevalidation } from '#app/components/live-revalidation.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Pagination } from '#app/components/ui/pagination.tsx'
import { getCourseTitle, listCourseEvents, listMembers, listThreads, startDiscussion } from '#app/models/community/discussions.server.ts'
import { communityTab, StartDiscussionSchema } from '#app/models/community/discussions.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { errorReply } from '#app/utils/form-reply.server.ts'
import { searchText } from '#app/utils/misc.ts'
import { SITE_NAME } from '#app/utils/page-meta.ts'
import { parsePage } from '#app/utils/pagination.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { postingLimit, requireCommunityMember, requirePoster } from './+shared/community.server.ts'
import type { Route } from './+types/community-course'

export async function loader({ request, params }: Route.LoaderArgs) {
	const { user, courseId, access } = await requireCommunityMember(request, params.courseId)
	const db = getDb()
	const url = new URL(request.url)
	const tab = communityTab(url.searchParams)
	const search = searchText(url.searchParams)
	const page = parsePage(url.searchParams)
	const [courseTitle, discussions, members, events] = await Promise.all([
		getCourseTitle(db, courseId),
		tab === 'discussions' ? listThreads(db, { courseId, search, page }) : null,
		tab === 'members' ? listMembers(db, courseId, { withEmails: access.canModerate }) : null,
		tab === 'events'
			? listCourseEvents(db, courseId, { canJoin: access.role === 'member' || user.isAdmin, timeZone: user.timeZone, now: new Date() })
			: null,
	])
	return {
		courseId,
		courseTitle: courseTitle ?? '',
		access,
		tab,
		search,
		page,
		discussions,
		members,
		events,
		// The Start Discussion form's one-time key: the same form sent twice makes one discussion.
		submissionKey: randomUUID(),
	}
}

export async function action({ request, params }: Route.ActionArgs) {
	const { user, courseId, access } = await requireCommunityMember(request, params.courseId)
	requirePoster(access)
	const formData = await readFormData(request)
	const submission = parseWithZod(formData, { schema: StartDiscussionSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const tooFast = await postingLimit(user.id)
	if (tooFast) return data({ result: errorReply(formData, tooFast) }, { status: 429 })
	const { title, content, notifyReplies, submissionKey } = submission.value
	const started = await startDiscussion(getDb(), {
		courseId,
		authorId: user.id,
		submissionKey,
		title,
		content,
		notifyReplies: notifyReplies === 'on',
	})
	if (started.courseId !== courseId) throw data('Community not found', { status: 404 })
	return redirectWithToast(
		href('/dashboard/community/:courseId/threads/:threadId', { courseId: String(courseId), threadId: String(started.threadId) }),
		{ type: 'success', title: 'Discussion started' },
	)
}

export default function CommunityCoursePage({ loaderData, actionData }: Route.ComponentProps) {
	const { courseId, courseTitle, access, tab, search, page, discussions, members, events, submissionKey } = loaderData
	const path = href('/dashboard/community/:courseId', { courseId: String(courseId) })
	const navigation = useNavigation()
	const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'start'
	useLiveRevalidation(['community.posted'])
	const threadPath = (threadId: number) =>
		href('/dashboard/community/:courseId/threads/:threadId', { courseId: String(courseId), threadId: String(threadId) })
	return (
		<>
			<h1 className="text-2xl font-bold text-ink">
				Community <span className="block text-lg font-semibold text-slate-700">{courseTitle}</span>
			</h1>
			<CommunityTabs path={path} current={tab} />
			{access.role === 'alumnus' ? (
				<Alert tone="info">You finished this course: you can read its discussions, and no longer post in them.</Alert>
			) : null}
			{discussions ? (
				<>
					<h2 id="discussions" className="text-xl font-semibold text-ink">
						Discussions
					</h2>
					<Form method="get" action={path} className="flex flex-wrap items-end gap-2" role="search">
						<label className="min-w-0 flex-1">
							<span className="mb-1 block text-sm font-medium text-slate-800">Search discussions</span>
							<input
								type="search"
								name="q"
								defaultValue={search}
								className="h-10 w-full rounded-md border border-slate-300 px-3 text-sm"
								maxLength={200}
							/>
						</label>
						<Button type="submit" variant="outline">
							Search
						</Button>
					</Form>
					{discussions.threads.length === 0 ? (
						<EmptyState
							title={search ? 'No discussions match your search' : 'No discussions yet'}
							description={search ? 'Try other words.' : 'Start the first one below.'}
						/>
					) : (
						<ThreadList threads={discussions.threads} threadPath={threadPath} />
					)}
					<Pagination
						label="Discussion pages"
						path={search ? `${path}?${new URLSearchParams({ q: search })}` : path}
						page={page}
						pageCount={discussions.pageCount}
						anchor="discussions"
					/>
					{access.canPost ? (
						<StartDiscussionForm action={path} submissionKey={submissionKey} lastResult={actionData?.result} saving={saving} />
					) : null}
				</>
			) : null}
			{members ? <MembersList members={members} /> : null}
			{events ? (
				<>
					<h2 className="text-xl font-semibold text-ink">Events</h2>
					<EventsList events={events} />
				</>
			) : null}
		</>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
	{ title: `${loaderData?.courseTitle ? `${loaderData.courseTitle} Community` : 'Community'} | ${SITE_NAME}` },
]

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
