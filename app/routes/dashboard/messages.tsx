import { href, Link, useLocation } from 'react-router'
import { useLiveRevalidation } from '#app/components/live-revalidation.tsx'
import { AnnouncementList } from '#app/components/messages/announcement-list.tsx'
import { InitialsAvatar } from '#app/components/messages/avatar.tsx'
import { ContactList } from '#app/components/messages/contact-list.tsx'
import { ConversationPanel } from '#app/components/messages/conversation-panel.tsx'
import { DeleteMessageDialog } from '#app/components/messages/delete-dialog.tsx'
import { DeletedAccountsCard } from '#app/components/messages/deleted-accounts-card.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { TabLinks } from '#app/components/ui/tabs.tsx'
import { getContact, listContacts } from '#app/models/messaging/message-contacts.server.ts'
import { listAnnouncements } from '#app/models/messaging/messages.server.ts'
import { announcementParts } from '#app/models/messaging/messages.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { searchText } from '#app/utils/misc.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { partialPage } from '#app/utils/page-toast.server.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { type LinkBuilder, withSearch } from '#app/utils/search-links.ts'
import { conversationAction, loadConversation, refreshContacts } from './+shared/messages.server.ts'
import type { Route } from './+types/messages'

const PATH = href('/dashboard/messages')
const threadUrl = (partnerId: string) => `${PATH}?tab=conversations&with=${partnerId}`
const LIVE_EVENTS = ['message.created', 'message.deleted', 'message.read', 'announcement.created', 'announcement.deleted'] as const

export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const url = new URL(request.url)
	const params = url.searchParams
	if (params.has('refresh')) throw await refreshContacts(PATH, params, user)
	const db = getDb()
	const tab = params.get('tab') === 'announcements' ? 'announcements' : 'conversations'
	const before = parseRowId(params.get('before')) ?? undefined
	const base = { userId: user.id, maxUploadMb: getEnv().MAX_UPLOAD_MB }

	const page = partialPage('messages')

	if (tab === 'announcements') {
		const announcements = await page.load(
			listAnnouncements(db, { userId: user.id, isAdmin: user.isAdmin }, { before }),
			{ messages: [], hasOlder: false },
			'Failed to load announcements',
		)
		return {
			...base,
			tab: 'announcements' as const,
			announcements: announcements.messages.map((message) => ({ ...message, ...announcementParts(message) })),
			olderAnnouncementsBefore: announcements.hasOlder ? announcements.messages.at(-1)!.id : null,
			pageToast: page.pageToast(),
		}
	}

	const search = searchText(params)
	const dialog = params.get('dialog') === 'new'
	const noContacts = { contacts: [], hasMore: false }
	const [{ contacts, hasMore }, allContacts] = await Promise.all([
		page.load(listContacts(db, user, { search }), noContacts, 'Failed to load contacts'),
		dialog && search ? page.load(listContacts(db, user), noContacts, 'Failed to load contacts') : null,
	])
	const withId = params.get('with')
	// A search shows only what it found: a thread it filtered out does not stay open beside the results.
	const selected =
		withId && !search
			? (contacts.find((contact) => contact.id === withId) ??
				(await page.load(getContact(db, user, withId), null, 'Failed to load contacts')))
			: (withId && contacts.find((contact) => contact.id === withId)) || (contacts[0] ?? null)
	const confirmId = parseRowId(params.get('confirm')?.replace(/^delete-/, ''))
	const conversation = await loadConversation(page, user, { partnerId: selected?.id, before, confirmId })
	return {
		...base,
		pageToast: page.pageToast(),
		tab: 'conversations' as const,
		search,
		contacts,
		hasMoreContacts: hasMore,
		dialogContacts: dialog ? (allContacts ?? { contacts }).contacts : null,
		selected,
		unknownContact: Boolean(withId && !search && !selected),
		...conversation,
	}
}

export async function action(args: Route.ActionArgs) {
	const user = await requireUser(args.request)
	return conversationAction(args, user, { threadUrl, successToasts: false })
}

export default function MessagesPage({ loaderData, actionData }: Route.ComponentProps) {
	useLiveRevalidation([...LIVE_EVENTS])
	const location = useLocation()
	const link = (changes: Record<string, string | number | null>) => withSearch(PATH, location.search, changes)
	const tabs = [
		{ id: 'announcements', label: 'Announcements', to: `${PATH}?tab=announcements` },
		{ id: 'conversations', label: 'Conversations', to: `${PATH}?tab=conversations` },
	]

	return (
		<>
			<h1 className="text-2xl font-bold text-ink">Messages</h1>
			<TabLinks tabs={tabs} current={loaderData.tab} label="Message views" />
			{loaderData.tab === 'announcements' ? (
				<Card>
					<CardHeader>
						<CardTitle>Announcements</CardTitle>
					</CardHeader>
					<CardContent>
						{loaderData.announcements.length === 0 ? (
							<EmptyState title="No announcements yet" description="Announcements from your instructors will appear here." />
						) : (
							<AnnouncementList
								announcements={loaderData.announcements}
								olderUrl={loaderData.olderAnnouncementsBefore ? link({ before: loaderData.olderAnnouncementsBefore }) : null}
							/>
						)}
					</CardContent>
				</Card>
			) : (
				<>
					<Conversations loaderData={loaderData} actionData={actionData} link={link} />
					<DeletedAccountsCard messages={loaderData.fromDeletedAccounts} currentUserId={loaderData.userId} />
				</>
			)}
		</>
	)
}

type ConversationData = Extract<Route.ComponentProps['loaderData'], { tab: 'conversations' }>

function Conversations({
	loaderData,
	actionData,
	link,
}: {
	loaderData: ConversationData
	actionData: Route.ComponentProps['actionData']
	link: LinkBuilder
}) {
	const { selected } = loaderData
	// A search starts from the results, not from the thread that happened to be open.
	const hidden: Record<string, string> = { tab: 'conversations' }

	return (
		<div className="grid grid-cols-1 gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]">
			{loaderData.confirmDelete ? <DeleteMessageDialog messageId={loaderData.confirmDelete} closeTo={link({ confirm: null })} /> : null}
			{loaderData.dialogContacts ? (
				<RouteDialog title="New conversation" description="Choose who to message." closeTo={link({ dialog: null })}>
					{loaderData.dialogContacts.length === 0 ? (
						<p className="text-sm text-slate-600">No contacts available.</p>
					) : (
						<ul className="max-h-96 space-y-1 overflow-y-auto">
							{loaderData.dialogContacts.map((contact) => (
								<li key={contact.id}>
									<Link to={threadUrl(contact.id)} className="flex items-center gap-3 rounded-lg px-2 py-2 hover:bg-slate-100">
										<InitialsAvatar initials={contact.avatar} />
										<span className="font-medium text-ink">{contact.name}</span>
									</Link>
								</li>
							))}
						</ul>
					)}
				</RouteDialog>
			) : null}
			<div className="space-y-3">
				<ContactList
					title="Contacts"
					contacts={loaderData.contacts}
					selectedId={selected?.id ?? null}
					search={loaderData.search}
					hidden={hidden}
					contactUrl={(id) => link({ with: id, before: null, confirm: null, dialog: null })}
					refreshUrl={link({ refresh: '1' })}
					hasMore={loaderData.hasMoreContacts}
					emptyText={loaderData.search ? 'No contacts match your search.' : 'No contacts available.'}
				/>
				<Link
					to={link({ dialog: 'new' })}
					preventScrollReset
					className="block rounded-md border border-brand-700 px-4 py-2 text-center text-sm font-semibold text-brand-800 hover:bg-brand-50"
				>
					New conversation
				</Link>
			</div>
			<ConversationPanel
				conversation={loaderData}
				actionData={actionData}
				threadUrl={threadUrl}
				link={link}
				empty={
					<EmptyState
						title={loaderData.unknownContact ? 'Conversation not available' : 'No conversation selected'}
						description={loaderData.unknownContact ? 'You cannot message this person.' : 'Choose a contact to start a conversation.'}
					/>
				}
			/>
		</div>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Messages')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
