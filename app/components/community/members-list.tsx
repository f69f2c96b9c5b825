import { Badge } from '#app/components/ui/badge.tsx'
import { Card } from '#app/components/ui/card.tsx'
import type { Member } from '#app/models/community/discussions.ts'

/** The course's staff and students by name and role; e-mail addresses only when the page was given them (staff, admins). */
export function MembersList({ members }: { members: Member[] }) {
	return (
		<Card className="p-0">
			<h2 className="sr-only">Members</h2>
			<ul className="divide-y divide-slate-100">
				{members.map((member) => (
					<li key={member.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
						<span className="min-w-0">
							<span className="block font-medium text-ink">{member.name}</span>{' '}
							{member.email ? <span className="block break-all text-sm text-slate-600">{member.email}</span> : null}
						</span>{' '}
						<Badge tone={member.role === 'Instructor' ? 'brand' : member.role === 'Alumnus' ? 'gray' : 'blue'}>{member.role}</Badge>
					</li>
				))}
			</ul>
		</Card>
	)
}
