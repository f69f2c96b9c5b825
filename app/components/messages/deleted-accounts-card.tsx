import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { MessageThread, type ThreadMessage } from './message-thread.tsx'

/**
 * What people who have since deleted their accounts sent the reader (docs/decisions/067): kept,
 * from "Deleted user", with no one to reply to. Shown only when there is any.
 */
export function DeletedAccountsCard({ messages, currentUserId }: { messages: ThreadMessage[]; currentUserId: string }) {
	if (messages.length === 0) return null
	return (
		<Card>
			<CardHeader>
				<CardTitle>From deleted accounts</CardTitle>
				<CardDescription>People who have deleted their accounts sent you these messages. They cannot be answered.</CardDescription>
			</CardHeader>
			<CardContent>
				<MessageThread messages={messages} currentUserId={currentUserId} partnerName="Deleted user" olderUrl={null} />
			</CardContent>
		</Card>
	)
}
