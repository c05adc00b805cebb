/** One provisioning file for the tests: short and full names, nesting, snake_case, most fields. */
export const SHOP_YAML = `
projects:
  - id: shop
    topics:
      - orders
      - name: orders-dead
        labels: { team: shop, cost_center: x-1 }
        message_retention_duration: 86400s
        subscriptions:
          - dead-audit
      - name: projects/other/topics/shared
    subscriptions:
      - name: orders-worker
        topic: orders
        ackDeadlineSeconds: 30
        filter: attributes.kind = "new"
        enableMessageOrdering: true
        retainAckedMessages: true
        messageRetentionDuration: 1200.5s
        expirationPolicy: { ttl: 172800s }
        deadLetterPolicy: { deadLetterTopic: orders-dead, maxDeliveryAttempts: 7 }
        retry_policy: { minimum_backoff: 1s, maximum_backoff: 20.5s }
        pushConfig:
          pushEndpoint: https://example.com/push
          attributes: { x-goog-version: v1 }
          noWrapper: { writeMetadata: true }
        labels: { app_name: worker }
`;
