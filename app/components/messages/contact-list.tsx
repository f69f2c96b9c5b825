import { Form, Link } from 'react-router'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Input, Label } from '#app/components/ui/input.tsx'
import { cn } from '#app/utils/misc.ts'
import { InitialsAvatar } from './avatar.tsx'

export type ContactItem = { id: string; name: string; avatar: string; role: string; unreadCount: number }

const roleLabels: Record<string, string> = { student: 'Student', instructor: 'Instructor', admin: 'Admin' }

/**
 * Contacts with unread counts, a search (a GET form, so it works without
 * JavaScript) and a refresh link. `hidden` carries the page's other query state.
 */
export function ContactList({
	title,
	contacts,
	selectedId,
	search,
	hidden,
	contactUrl,
	refreshUrl,
	hasMore,
	emptyText,
}: {
	title: string
	contacts: ContactItem[]
	selectedId: string | null
	search: string
	hidden: Record<string, string>
	contactUrl: (id: string) => string
	refreshUrl: string
	hasMore: boolean
	emptyText: string
}) {
	return (
		<section aria-labelledby="contacts-heading" className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
			<div className="flex items-center justify-between gap-2 px-1">
				<h2 id="contacts-heading" className="text-base font-semibold text-ink">
					{title}
				</h2>
				<ButtonLink to={refreshUrl} variant="ghost" size="sm" preventScrollReset>
					Refresh
				</ButtonLink>
			</div>
			<Form method="get" role="search" className="mt-2 flex gap-2" preventScrollReset>
				{Object.entries(hidden).map(([name, value]) => (
					<input key={name} type="hidden" name={name} value={value} />
				))}
				<Label htmlFor="contact-search" className="sr-only">
					Search contacts
				</Label>
				<Input id="contact-search" type="search" name="q" defaultValue={search} placeholder="Search contacts..." />
				<Button type="submit" variant="outline">
					Search
				</Button>
			</Form>
			{contacts.length === 0 ? (
				<p className="px-1 py-6 text-center text-sm text-slate-600">{emptyText}</p>
			) : (
				<ul className="mt-3 max-h-72 space-y-1 overflow-y-auto lg:max-h-[30rem]" aria-label={title}>
					{contacts.map((contact) => {
						const selected = contact.id === selectedId
						return (
							<li key={contact.id}>
								<Link
									to={contactUrl(contact.id)}
									preventScrollReset
									aria-current={selected ? 'true' : undefined}
									className={cn(
										'flex items-center gap-3 rounded-lg px-2 py-2',
										selected ? 'bg-brand-50 ring-1 ring-brand-600 ring-inset' : 'hover:bg-slate-100',
									)}
								>
									<InitialsAvatar initials={contact.avatar} />
									<span className="min-w-0 flex-1">
										<span className="block truncate font-medium text-ink">{contact.name}</span>
										<span className="block text-xs text-slate-600">{roleLabels[contact.role] ?? 'Student'}</span>
									</span>
									{contact.unreadCount > 0 ? (
										<span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white" data-testid="unread-count">
											{contact.unreadCount}
											<span className="sr-only"> unread</span>
										</span>
									) : null}
								</Link>
							</li>
						)
					})}
				</ul>
			)}
			{hasMore ? <p className="mt-2 px-1 text-xs text-slate-600">Showing the first {contacts.length}. Search to find others.</p> : null}
		</section>
	)
}
