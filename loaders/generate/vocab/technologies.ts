/** Technologies a company is seen using (~150), most common first; the order sets the draw weight. */
export const TECHNOLOGIES: readonly string[] =
  `Google Analytics,Google Workspace,Microsoft 365,WordPress,Salesforce,HubSpot,AWS,Slack,Zoom,Google Tag Manager,
Stripe,Shopify,Zendesk,Jira,Confluence,GitHub,Atlassian,Microsoft Azure,Google Cloud,Cloudflare,
Mailchimp,Intercom,Marketo,Pardot,LinkedIn Insight Tag,Facebook Pixel,Hotjar,Segment,Mixpanel,Amplitude,
Snowflake,Databricks,Tableau,Looker,Power BI,dbt,Fivetran,BigQuery,Redshift,PostgreSQL,
MySQL,MongoDB,Redis,Elasticsearch,Kafka,Docker,Kubernetes,Terraform,Datadog,New Relic,
Sentry,PagerDuty,Splunk,Okta,Auth0,1Password,CrowdStrike,Palo Alto Networks,Zscaler,Cisco,
React,Angular,Vue.js,Next.js,Node.js,TypeScript,Python,Java,Go,Ruby on Rails,
Django,.NET,PHP,Kotlin,Swift,Flutter,GraphQL,Vercel,Netlify,Heroku,
Workday,SAP,Oracle,NetSuite,QuickBooks,Xero,Sage,Coupa,Expensify,Bill.com,
ADP,Gusto,BambooHR,Greenhouse,Lever,Rippling,Lattice,Culture Amp,Deel,Personio,
ServiceNow,Freshdesk,Gong,Outreach,Salesloft,ZoomInfo,Apollo,Clari,DocuSign,PandaDoc,
Asana,Monday.com,Notion,Trello,Airtable,Figma,Miro,Canva,Adobe Creative Cloud,Webflow,
Optimizely,LaunchDarkly,Braze,Klaviyo,Iterable,Twilio,SendGrid,Algolia,Contentful,Sanity,
Magento,BigCommerce,WooCommerce,Adyen,PayPal,Square,Chargebee,Recurly,Zuora,Avalara,
OpenAI,Anthropic,Hugging Face,TensorFlow,PyTorch,Pinecone,Dynamics 365,Veeva,Epic Systems,Cerner,
Procore,Autodesk,SolidWorks,Siemens NX,MATLAB,Samsara,Unity,Unreal Engine,Drift,Calendly`
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
