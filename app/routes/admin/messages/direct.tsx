import { useLocation } from 'react-router'
import { ContactList } from '#app/components/messages/contact-list.tsx'
import { ConversationPanel } from '#app/components/messages/conversation-panel.tsx'
import { DeleteMessageDialog } from '#app/components/messages/delete-dialog.tsx'
import { DeletedAccountsCard } from '#app/components/messages/deleted-accounts-card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { getContact, listContacts } from '#app/models/messaging/message-contacts.server.ts'
import { conversationAction, loadConversation, refreshContacts } from '#app/routes/dashboard/+shared/messages.server.ts'
import { requireStaff } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { searchText } from '#app/utils/misc.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { partialPage } from '#app/utils/page-toast.server.ts'
import { withSearch } from '#app/utils/search-links.ts'
import { beforeId, confirmedId, DIRECT_PATH, directThreadUrl } from './+shared/paths.ts'
import type { Route } from './+types/direct'

/** The staff member's contacts (docs/decisions/058: an instructor's are their courses' students) and one conversation. */
export async function loader({ request }: Route.LoaderArgs) {
	const staff = await requireStaff(request)
	const params = new URL(request.url).searchParams
	if (params.has('refresh')) throw await refreshContacts(DIRECT_PATH, params, staff)
	const db = getDb()
	const before = beforeId(params)
	const page = partialPage('admin messages')
	const search = searchText(params)
	const { contacts, hasMore } = await page.load(
		listContacts(db, staff, { search }),
		{ contacts: [], hasMore: false },
		'Failed to load contacts',
	)
	const withId = params.get('with')
	// A search shows only what it found: a thread it filtered out does not stay open beside the results.
	const selected = !withId
		? null
		: search
			? (contacts.find((contact) => contact.id === withId) ?? null)
			: (contacts.find((contact) => contact.id === withId) ??
				(await page.load(getContact(db, staff, withId), null, 'Failed to load contacts')))
	const conversation = await loadConversation(page, staff, { partnerId: selected?.id, before, confirmId: confirmedId(params) })
	return {
		userId: staff.id,
		maxUploadMb: getEnv().MAX_UPLOAD_MB,
		pageToast: page.pageToast(),
		search,
		contacts,
		hasMoreContacts: hasMore,
		selected,
		...conversation,
	}
}

/** Sends a message to a contact (with one optional file; anyone else is refused), deletes one, marks a conversation read. */
export async function action(args: Route.ActionArgs) {
	const staff = await requireStaff(args.request)
	return conversationAction(args, staff, { threadUrl: directThreadUrl, successToasts: true })
}

export default function DirectMessages({ loaderData, actionData }: Route.ComponentProps) {
	const location = useLocation()
	const link = (changes: Record<string, string | number | null>) => withSearch(DIRECT_PATH, location.search, changes)
	const { selected } = loaderData

	return (
		<div className="grid grid-cols-1 gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]">
			{loaderData.confirmDelete ? <DeleteMessageDialog messageId={loaderData.confirmDelete} closeTo={link({ confirm: null })} /> : null}
			<ContactList
				title="Students"
				contacts={loaderData.contacts}
				selectedId={selected?.id ?? null}
				search={loaderData.search}
				hidden={{}}
				contactUrl={(id) => link({ with: id, before: null, confirm: null })}
				refreshUrl={link({ refresh: '1' })}
				hasMore={loaderData.hasMoreContacts}
				emptyText={loaderData.search ? 'No students match your search.' : 'No students yet.'}
			/>
			<ConversationPanel
				conversation={loaderData}
				actionData={actionData}
				threadUrl={directThreadUrl}
				link={link}
				empty={<EmptyState title="Select a student" description="Choose a student to start a conversation" />}
			/>
			{loaderData.fromDeletedAccounts.length > 0 ? (
				<div className="lg:col-span-2">
					<DeletedAccountsCard messages={loaderData.fromDeletedAccounts} currentUserId={loaderData.userId} />
				</div>
			) : null}
		</div>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Direct Messages')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
