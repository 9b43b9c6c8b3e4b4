# Generated from the served OpenAPI document by scripts/write-python-client.ts (npm run clients:write).
# Do not edit: run `npm run clients:write` after changing a route.

"""One method per operation of the API, named by its operationId in snake_case."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Literal, Optional, Union

from .operation import Operation, Param

if TYPE_CHECKING:
    from .types import (
        CertificateView,
        CertificateSale,
        Holder,
        LandsAvailable,
        Source,
        Health,
        CertificateSearchList,
        CertificateList,
        CertificateResponse,
        CertificateGeoGridResponse,
        CertificateCountsResponse,
        CertificateFieldsResponse,
        CertificateFreshnessResponse,
        CertificateSaleList,
        HolderList,
        HolderResponse,
        LandsAvailableList,
        CountyListResponse,
        CountyResponse,
        SourceList,
        BulkFile,
        BulkFileList,
        UsageResponse,
        HolderGroup,
        HolderGroupList,
        RedemptionQuoteResponse,
        CertificateTimelineResponse,
        DeedEstimateResponse,
        BidRateAnalyticsResponse,
        RedemptionCurveResponse,
        ExpectedYieldResponse,
        Event,
        EventList,
        WebhookEndpoint,
        WebhookDelivery,
        WebhookEndpointList,
        WebhookDeliveryList,
        WebhookEndpointResponse,
        WebhookEndpointSecretResponse,
        DeletedResponse,
        SavedSearch,
        SavedSearchList,
        SavedSearchResponse,
        Portfolio,
        PortfolioList,
        PortfolioResponse,
        PortfolioPositionsReportResponse,
        PortfolioPositionAnswer,
        PortfolioPositionAnswerList,
        PortfolioSummaryResponse,
        PortfolioCalendarAddressResponse,
        OpenApiDocument,
        CreateWebhookEndpointBody,
        UpdateWebhookEndpointBody,
        CreateSavedSearchBody,
        UpdateSavedSearchBody,
        CreatePortfolioBody,
        UpdatePortfolioBody,
        AddPortfolioPositionsBody,
    )

OPERATIONS: Dict[str, Operation] = {
    "get_open_api_document": Operation(
        operation_id="getOpenApiDocument",
        method="GET",
        path="/api/v1/openapi.json",
        params=(
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_health": Operation(
        operation_id="getHealth",
        method="GET",
        path="/healthz",
        params=(
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_calendar_by_address": Operation(
        operation_id="getCalendarByAddress",
        method="GET",
        path="/calendar/{token}.ics",
        params=(
            Param("token", "token", "path", required=True, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="text/calendar",
    ),
    "list_counties": Operation(
        operation_id="listCounties",
        method="GET",
        path="/api/v1/counties",
        params=(
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_county": Operation(
        operation_id="getCounty",
        method="GET",
        path="/api/v1/counties/{county}",
        params=(
            Param("county", "county", "path", required=True, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "search_certificates": Operation(
        operation_id="searchCertificates",
        method="GET",
        path="/api/v1/certificates/search",
        params=(
            Param("query", "query", "query", required=False, explode=True),
            Param("county", "county", "query", required=False, explode=True),
            Param("status", "status", "query", required=False, explode=True),
            Param("tax_year", "tax_year", "query", required=False, explode=True),
            Param("holder", "holder", "query", required=False, explode=True),
            Param("holder_group", "holder_group", "query", required=False, explode=True),
            Param("vendor", "vendor", "query", required=False, explode=True),
            Param("face_min", "face_min", "query", required=False, explode=True),
            Param("face_max", "face_max", "query", required=False, explode=True),
            Param("sale_after", "sale_after", "query", required=False, explode=True),
            Param("sale_before", "sale_before", "query", required=False, explode=True),
            Param("redeemed", "redeemed", "query", required=False, explode=True),
            Param("deed_eligible_by", "deed_eligible_by", "query", required=False, explode=True),
            Param("expires_before", "expires_before", "query", required=False, explode=True),
            Param("rate_min", "rate_min", "query", required=False, explode=True),
            Param("rate_max", "rate_max", "query", required=False, explode=True),
            Param("bbox", "bbox", "query", required=False, explode=True),
            Param("near", "near", "query", required=False, explode=True),
            Param("radius", "radius", "query", required=False, explode=True),
            Param("polygon", "polygon", "query", required=False, explode=True),
            Param("homestead", "homestead", "query", required=False, explode=True),
            Param("just_value_min", "just_value_min", "query", required=False, explode=True),
            Param("just_value_max", "just_value_max", "query", required=False, explode=True),
            Param("use_code", "use_code", "query", required=False, explode=True),
            Param("zip", "zip", "query", required=False, explode=True),
            Param("city", "city", "query", required=False, explode=True),
            Param("owner_type", "owner_type", "query", required=False, explode=True),
            Param("sort", "sort", "query", required=False, explode=True),
            Param("facets", "facets", "query", required=False, explode=True),
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
            Param("format", "format", "query", required=False, explode=True),
            Param("expand", "expand", "query", required=False, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=True,
        accept="application/json",
    ),
    "get_certificates_by_parcel": Operation(
        operation_id="getCertificatesByParcel",
        method="GET",
        path="/api/v1/certificates/by-parcel",
        params=(
            Param("county", "county", "query", required=True, explode=True),
            Param("parcel_id", "parcel_id", "query", required=True, explode=True),
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
            Param("format", "format", "query", required=False, explode=True),
            Param("expand", "expand", "query", required=False, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=True,
        accept="application/json",
    ),
    "get_certificate_counts": Operation(
        operation_id="getCertificateCounts",
        method="GET",
        path="/api/v1/certificates/counts",
        params=(
            Param("county", "county", "query", required=False, explode=True),
            Param("tax_year", "tax_year", "query", required=False, explode=True),
            Param("rate_min", "rate_min", "query", required=False, explode=True),
            Param("rate_max", "rate_max", "query", required=False, explode=True),
            Param("bbox", "bbox", "query", required=False, explode=True),
            Param("near", "near", "query", required=False, explode=True),
            Param("radius", "radius", "query", required=False, explode=True),
            Param("polygon", "polygon", "query", required=False, explode=True),
            Param("homestead", "homestead", "query", required=False, explode=True),
            Param("just_value_min", "just_value_min", "query", required=False, explode=True),
            Param("just_value_max", "just_value_max", "query", required=False, explode=True),
            Param("use_code", "use_code", "query", required=False, explode=True),
            Param("zip", "zip", "query", required=False, explode=True),
            Param("city", "city", "query", required=False, explode=True),
            Param("owner_type", "owner_type", "query", required=False, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_certificate_geo_grid": Operation(
        operation_id="getCertificateGeoGrid",
        method="GET",
        path="/api/v1/certificates/geo-grid",
        params=(
            Param("zoom", "zoom", "query", required=True, explode=True),
            Param("query", "query", "query", required=False, explode=True),
            Param("county", "county", "query", required=False, explode=True),
            Param("status", "status", "query", required=False, explode=True),
            Param("tax_year", "tax_year", "query", required=False, explode=True),
            Param("holder", "holder", "query", required=False, explode=True),
            Param("holder_group", "holder_group", "query", required=False, explode=True),
            Param("vendor", "vendor", "query", required=False, explode=True),
            Param("face_min", "face_min", "query", required=False, explode=True),
            Param("face_max", "face_max", "query", required=False, explode=True),
            Param("sale_after", "sale_after", "query", required=False, explode=True),
            Param("sale_before", "sale_before", "query", required=False, explode=True),
            Param("redeemed", "redeemed", "query", required=False, explode=True),
            Param("deed_eligible_by", "deed_eligible_by", "query", required=False, explode=True),
            Param("expires_before", "expires_before", "query", required=False, explode=True),
            Param("rate_min", "rate_min", "query", required=False, explode=True),
            Param("rate_max", "rate_max", "query", required=False, explode=True),
            Param("bbox", "bbox", "query", required=False, explode=True),
            Param("near", "near", "query", required=False, explode=True),
            Param("radius", "radius", "query", required=False, explode=True),
            Param("polygon", "polygon", "query", required=False, explode=True),
            Param("homestead", "homestead", "query", required=False, explode=True),
            Param("just_value_min", "just_value_min", "query", required=False, explode=True),
            Param("just_value_max", "just_value_max", "query", required=False, explode=True),
            Param("use_code", "use_code", "query", required=False, explode=True),
            Param("zip", "zip", "query", required=False, explode=True),
            Param("city", "city", "query", required=False, explode=True),
            Param("owner_type", "owner_type", "query", required=False, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_certificate_fields": Operation(
        operation_id="getCertificateFields",
        method="GET",
        path="/api/v1/certificates/fields",
        params=(
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_certificate_freshness": Operation(
        operation_id="getCertificateFreshness",
        method="GET",
        path="/api/v1/certificates/freshness",
        params=(
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_certificate": Operation(
        operation_id="getCertificate",
        method="GET",
        path="/api/v1/certificates/{id}",
        params=(
            Param("expand", "expand", "query", required=False, explode=True),
            Param("format", "format", "query", required=False, explode=True),
            Param("id", "id", "path", required=True, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "search_certificate_sales": Operation(
        operation_id="searchCertificateSales",
        method="GET",
        path="/api/v1/certificate-sales/search",
        params=(
            Param("county", "county", "query", required=False, explode=True),
            Param("tax_year", "tax_year", "query", required=False, explode=True),
            Param("vendor", "vendor", "query", required=False, explode=True),
            Param("sale_after", "sale_after", "query", required=False, explode=True),
            Param("sale_before", "sale_before", "query", required=False, explode=True),
            Param("sort", "sort", "query", required=False, explode=True),
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
            Param("format", "format", "query", required=False, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=True,
        accept="application/json",
    ),
    "search_holders": Operation(
        operation_id="searchHolders",
        method="GET",
        path="/api/v1/holders/search",
        params=(
            Param("query", "query", "query", required=False, explode=True),
            Param("county", "county", "query", required=False, explode=True),
            Param("min_certificates", "min_certificates", "query", required=False, explode=True),
            Param("sort", "sort", "query", required=False, explode=True),
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
            Param("format", "format", "query", required=False, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=True,
        accept="application/json",
    ),
    "get_holder": Operation(
        operation_id="getHolder",
        method="GET",
        path="/api/v1/holders/{id}",
        params=(
            Param("id", "id", "path", required=True, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "search_lands_available": Operation(
        operation_id="searchLandsAvailable",
        method="GET",
        path="/api/v1/lands-available/search",
        params=(
            Param("county", "county", "query", required=False, explode=True),
            Param("tax_year", "tax_year", "query", required=False, explode=True),
            Param("min_opening_bid", "min_opening_bid", "query", required=False, explode=True),
            Param("max_opening_bid", "max_opening_bid", "query", required=False, explode=True),
            Param("sort", "sort", "query", required=False, explode=True),
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
            Param("format", "format", "query", required=False, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=True,
        accept="application/json",
    ),
    "list_sources": Operation(
        operation_id="listSources",
        method="GET",
        path="/api/v1/sources",
        params=(
            Param("county", "county", "query", required=False, explode=True),
            Param("vendor", "vendor", "query", required=False, explode=True),
            Param("source_kind", "source_kind", "query", required=False, explode=True),
            Param("active", "active", "query", required=False, explode=True),
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
            Param("format", "format", "query", required=False, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=True,
        accept="application/json",
    ),
    "get_county_sources": Operation(
        operation_id="getCountySources",
        method="GET",
        path="/api/v1/sources/{county}",
        params=(
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
            Param("format", "format", "query", required=False, explode=True),
            Param("county", "county", "path", required=True, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=True,
        accept="application/json",
    ),
    "get_bid_rate_analytics": Operation(
        operation_id="getBidRateAnalytics",
        method="GET",
        path="/api/v1/analytics/bid-rates",
        params=(
            Param("county", "county", "query", required=False, explode=True),
            Param("tax_year", "tax_year", "query", required=False, explode=True),
            Param("vendor", "vendor", "query", required=False, explode=True),
            Param("bbox", "bbox", "query", required=False, explode=True),
            Param("near", "near", "query", required=False, explode=True),
            Param("radius", "radius", "query", required=False, explode=True),
            Param("polygon", "polygon", "query", required=False, explode=True),
            Param("homestead", "homestead", "query", required=False, explode=True),
            Param("just_value_min", "just_value_min", "query", required=False, explode=True),
            Param("just_value_max", "just_value_max", "query", required=False, explode=True),
            Param("use_code", "use_code", "query", required=False, explode=True),
            Param("zip", "zip", "query", required=False, explode=True),
            Param("city", "city", "query", required=False, explode=True),
            Param("owner_type", "owner_type", "query", required=False, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_usage": Operation(
        operation_id="getUsage",
        method="GET",
        path="/api/v1/account/usage",
        params=(
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_redemption_quote": Operation(
        operation_id="getRedemptionQuote",
        method="GET",
        path="/api/v1/certificates/{id}/redemption",
        params=(
            Param("date", "date", "query", required=False, explode=True),
            Param("id", "id", "path", required=True, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_certificate_timeline": Operation(
        operation_id="getCertificateTimeline",
        method="GET",
        path="/api/v1/certificates/{id}/timeline",
        params=(
            Param("date", "date", "query", required=False, explode=True),
            Param("id", "id", "path", required=True, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_deed_estimate": Operation(
        operation_id="getDeedEstimate",
        method="GET",
        path="/api/v1/certificates/{id}/deed-estimate",
        params=(
            Param("date", "date", "query", required=False, explode=True),
            Param("id", "id", "path", required=True, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "search_holder_groups": Operation(
        operation_id="searchHolderGroups",
        method="GET",
        path="/api/v1/analytics/holders",
        params=(
            Param("county", "county", "query", required=False, explode=True),
            Param("tax_year", "tax_year", "query", required=False, explode=True),
            Param("query", "query", "query", required=False, explode=True),
            Param("sort", "sort", "query", required=False, explode=True),
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
        ),
        paging="offset",
        page_size=50,
        csv=False,
        accept="application/json",
    ),
    "get_redemption_curve": Operation(
        operation_id="getRedemptionCurve",
        method="GET",
        path="/api/v1/analytics/redemption-curve",
        params=(
            Param("county", "county", "query", required=False, explode=True),
            Param("tax_year", "tax_year", "query", required=False, explode=True),
            Param("vendor", "vendor", "query", required=False, explode=True),
            Param("face_min", "face_min", "query", required=False, explode=True),
            Param("face_max", "face_max", "query", required=False, explode=True),
            Param("rate_min", "rate_min", "query", required=False, explode=True),
            Param("rate_max", "rate_max", "query", required=False, explode=True),
            Param("bbox", "bbox", "query", required=False, explode=True),
            Param("near", "near", "query", required=False, explode=True),
            Param("radius", "radius", "query", required=False, explode=True),
            Param("polygon", "polygon", "query", required=False, explode=True),
            Param("homestead", "homestead", "query", required=False, explode=True),
            Param("just_value_min", "just_value_min", "query", required=False, explode=True),
            Param("just_value_max", "just_value_max", "query", required=False, explode=True),
            Param("use_code", "use_code", "query", required=False, explode=True),
            Param("zip", "zip", "query", required=False, explode=True),
            Param("city", "city", "query", required=False, explode=True),
            Param("owner_type", "owner_type", "query", required=False, explode=True),
            Param("as_of", "as_of", "query", required=False, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_expected_yield": Operation(
        operation_id="getExpectedYield",
        method="GET",
        path="/api/v1/analytics/expected-yield",
        params=(
            Param("county", "county", "query", required=False, explode=True),
            Param("tax_year", "tax_year", "query", required=False, explode=True),
            Param("vendor", "vendor", "query", required=False, explode=True),
            Param("face_min", "face_min", "query", required=False, explode=True),
            Param("face_max", "face_max", "query", required=False, explode=True),
            Param("rate_min", "rate_min", "query", required=False, explode=True),
            Param("rate_max", "rate_max", "query", required=False, explode=True),
            Param("bbox", "bbox", "query", required=False, explode=True),
            Param("near", "near", "query", required=False, explode=True),
            Param("radius", "radius", "query", required=False, explode=True),
            Param("polygon", "polygon", "query", required=False, explode=True),
            Param("homestead", "homestead", "query", required=False, explode=True),
            Param("just_value_min", "just_value_min", "query", required=False, explode=True),
            Param("just_value_max", "just_value_max", "query", required=False, explode=True),
            Param("use_code", "use_code", "query", required=False, explode=True),
            Param("zip", "zip", "query", required=False, explode=True),
            Param("city", "city", "query", required=False, explode=True),
            Param("owner_type", "owner_type", "query", required=False, explode=True),
            Param("as_of", "as_of", "query", required=False, explode=True),
            Param("rates", "rates", "query", required=False, explode=True),
            Param("horizon_months", "horizon_months", "query", required=False, explode=True),
            Param("target_yield", "target_yield", "query", required=False, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "list_events": Operation(
        operation_id="listEvents",
        method="GET",
        path="/api/v1/events",
        params=(
            Param("after", "after", "query", required=False, explode=True),
            Param("type", "type", "query", required=False, explode=True),
            Param("county", "county", "query", required=False, explode=True),
            Param("limit", "limit", "query", required=False, explode=True),
        ),
        paging="after",
        page_size=500,
        csv=False,
        accept="application/json",
    ),
    "list_webhook_endpoints": Operation(
        operation_id="listWebhookEndpoints",
        method="GET",
        path="/api/v1/webhook-endpoints",
        params=(
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=False,
        accept="application/json",
    ),
    "create_webhook_endpoint": Operation(
        operation_id="createWebhookEndpoint",
        method="POST",
        path="/api/v1/webhook-endpoints",
        params=(
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
            Param("body", "body", "body", required=True, explode=False),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "list_webhook_deliveries": Operation(
        operation_id="listWebhookDeliveries",
        method="GET",
        path="/api/v1/webhook-endpoints/{id}/deliveries",
        params=(
            Param("status", "status", "query", required=False, explode=True),
            Param("event_id", "event_id", "query", required=False, explode=True),
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
            Param("id", "id", "path", required=True, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=False,
        accept="application/json",
    ),
    "get_webhook_endpoint": Operation(
        operation_id="getWebhookEndpoint",
        method="GET",
        path="/api/v1/webhook-endpoints/{id}",
        params=(
            Param("id", "id", "path", required=True, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "update_webhook_endpoint": Operation(
        operation_id="updateWebhookEndpoint",
        method="PATCH",
        path="/api/v1/webhook-endpoints/{id}",
        params=(
            Param("id", "id", "path", required=True, explode=True),
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
            Param("body", "body", "body", required=True, explode=False),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "delete_webhook_endpoint": Operation(
        operation_id="deleteWebhookEndpoint",
        method="DELETE",
        path="/api/v1/webhook-endpoints/{id}",
        params=(
            Param("id", "id", "path", required=True, explode=True),
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "rotate_webhook_endpoint_secret": Operation(
        operation_id="rotateWebhookEndpointSecret",
        method="POST",
        path="/api/v1/webhook-endpoints/{id}/rotate-secret",
        params=(
            Param("id", "id", "path", required=True, explode=True),
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "list_saved_searches": Operation(
        operation_id="listSavedSearches",
        method="GET",
        path="/api/v1/saved-searches",
        params=(
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=False,
        accept="application/json",
    ),
    "create_saved_search": Operation(
        operation_id="createSavedSearch",
        method="POST",
        path="/api/v1/saved-searches",
        params=(
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
            Param("body", "body", "body", required=True, explode=False),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_saved_search": Operation(
        operation_id="getSavedSearch",
        method="GET",
        path="/api/v1/saved-searches/{id}",
        params=(
            Param("id", "id", "path", required=True, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "update_saved_search": Operation(
        operation_id="updateSavedSearch",
        method="PATCH",
        path="/api/v1/saved-searches/{id}",
        params=(
            Param("id", "id", "path", required=True, explode=True),
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
            Param("body", "body", "body", required=True, explode=False),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "delete_saved_search": Operation(
        operation_id="deleteSavedSearch",
        method="DELETE",
        path="/api/v1/saved-searches/{id}",
        params=(
            Param("id", "id", "path", required=True, explode=True),
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "list_saved_search_matches": Operation(
        operation_id="listSavedSearchMatches",
        method="GET",
        path="/api/v1/saved-searches/{id}/matches",
        params=(
            Param("sort", "sort", "query", required=False, explode=True),
            Param("facets", "facets", "query", required=False, explode=True),
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
            Param("format", "format", "query", required=False, explode=True),
            Param("expand", "expand", "query", required=False, explode=True),
            Param("id", "id", "path", required=True, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=True,
        accept="application/json",
    ),
    "list_portfolios": Operation(
        operation_id="listPortfolios",
        method="GET",
        path="/api/v1/portfolios",
        params=(
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=False,
        accept="application/json",
    ),
    "create_portfolio": Operation(
        operation_id="createPortfolio",
        method="POST",
        path="/api/v1/portfolios",
        params=(
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
            Param("body", "body", "body", required=True, explode=False),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_portfolio": Operation(
        operation_id="getPortfolio",
        method="GET",
        path="/api/v1/portfolios/{id}",
        params=(
            Param("id", "id", "path", required=True, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "update_portfolio": Operation(
        operation_id="updatePortfolio",
        method="PATCH",
        path="/api/v1/portfolios/{id}",
        params=(
            Param("id", "id", "path", required=True, explode=True),
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
            Param("body", "body", "body", required=True, explode=False),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "delete_portfolio": Operation(
        operation_id="deletePortfolio",
        method="DELETE",
        path="/api/v1/portfolios/{id}",
        params=(
            Param("id", "id", "path", required=True, explode=True),
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "list_portfolio_positions": Operation(
        operation_id="listPortfolioPositions",
        method="GET",
        path="/api/v1/portfolios/{id}/positions",
        params=(
            Param("as_of", "as_of", "query", required=False, explode=True),
            Param("status", "status", "query", required=False, explode=True),
            Param("county", "county", "query", required=False, explode=True),
            Param("deadline_before", "deadline_before", "query", required=False, explode=True),
            Param("sort", "sort", "query", required=False, explode=True),
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
            Param("format", "format", "query", required=False, explode=True),
            Param("id", "id", "path", required=True, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=True,
        accept="application/json",
    ),
    "add_portfolio_positions": Operation(
        operation_id="addPortfolioPositions",
        method="POST",
        path="/api/v1/portfolios/{id}/positions",
        params=(
            Param("id", "id", "path", required=True, explode=True),
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
            Param("body", "body", "body", required=True, explode=False),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "delete_portfolio_position": Operation(
        operation_id="deletePortfolioPosition",
        method="DELETE",
        path="/api/v1/portfolios/{id}/positions/{position_id}",
        params=(
            Param("id", "id", "path", required=True, explode=True),
            Param("position_id", "position_id", "path", required=True, explode=True),
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_portfolio_summary": Operation(
        operation_id="getPortfolioSummary",
        method="GET",
        path="/api/v1/portfolios/{id}/summary",
        params=(
            Param("as_of", "as_of", "query", required=False, explode=True),
            Param("id", "id", "path", required=True, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "get_portfolio_calendar": Operation(
        operation_id="getPortfolioCalendar",
        method="GET",
        path="/api/v1/portfolios/{id}/calendar.ics",
        params=(
            Param("id", "id", "path", required=True, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="text/calendar",
    ),
    "create_portfolio_calendar_address": Operation(
        operation_id="createPortfolioCalendarAddress",
        method="POST",
        path="/api/v1/portfolios/{id}/calendar-address",
        params=(
            Param("id", "id", "path", required=True, explode=True),
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "delete_portfolio_calendar_address": Operation(
        operation_id="deletePortfolioCalendarAddress",
        method="DELETE",
        path="/api/v1/portfolios/{id}/calendar-address",
        params=(
            Param("id", "id", "path", required=True, explode=True),
            Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/json",
    ),
    "list_bulk_files": Operation(
        operation_id="listBulkFiles",
        method="GET",
        path="/api/v1/bulk/files",
        params=(
            Param("dataset", "dataset", "query", required=False, explode=True),
            Param("county", "county", "query", required=False, explode=True),
            Param("tax_year", "tax_year", "query", required=False, explode=True),
            Param("format", "format", "query", required=False, explode=True),
            Param("kind", "kind", "query", required=False, explode=True),
            Param("since", "since", "query", required=False, explode=True),
            Param("limit", "limit", "query", required=False, explode=True),
            Param("offset", "offset", "query", required=False, explode=True),
        ),
        paging="offset",
        page_size=500,
        csv=False,
        accept="application/json",
    ),
    "download_bulk_file": Operation(
        operation_id="downloadBulkFile",
        method="GET",
        path="/api/v1/bulk/files/{name}",
        params=(
            Param("name", "name", "path", required=True, explode=True),
        ),
        paging=None,
        page_size=None,
        csv=False,
        accept="application/octet-stream",
    ),
}


class Operations:
    """The generated methods; Client supplies `_call`, `_csv` and `_rows`."""

    def _call(self, name: str, params: Dict[str, Any]) -> Any:  # pragma: no cover
        raise NotImplementedError

    def _csv(self, name: str, params: Dict[str, Any]) -> str:  # pragma: no cover
        raise NotImplementedError

    def _rows(self, name: str, params: Dict[str, Any]) -> Iterator[Any]:  # pragma: no cover
        raise NotImplementedError

    def get_open_api_document(self) -> OpenApiDocument:
        """This OpenAPI document

        GET /api/v1/openapi.json
        """
        return self._call("get_open_api_document", {})

    def get_health(self) -> Health:
        """Liveness of the service and its three dependencies (no API key needed)

        GET /healthz
        """
        return self._call("get_health", {})

    def get_calendar_by_address(self, token: str) -> str:
        """A portfolio's calendar at its secret address (no API key)

        GET /calendar/{token}.ics
        """
        return self._call("get_calendar_by_address", {"token": token})

    def list_counties(self) -> CountyListResponse:
        """All 67 Florida counties, alphabetical by name

        GET /api/v1/counties
        """
        return self._call("list_counties", {})

    def get_county(self, county: str) -> CountyResponse:
        """One county by slug

        GET /api/v1/counties/{county}
        """
        return self._call("get_county", {"county": county})

    def search_certificates(
        self,
        *,
        query: Optional[str] = None,
        county: Optional[List[str]] = None,
        status: Optional[List[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]]] = None,
        tax_year: Optional[List[int]] = None,
        holder: Optional[str] = None,
        holder_group: Optional[List[str]] = None,
        vendor: Optional[List[str]] = None,
        face_min: Optional[float] = None,
        face_max: Optional[float] = None,
        sale_after: Optional[str] = None,
        sale_before: Optional[str] = None,
        redeemed: Optional[bool] = None,
        deed_eligible_by: Optional[str] = None,
        expires_before: Optional[str] = None,
        rate_min: Optional[float] = None,
        rate_max: Optional[float] = None,
        bbox: Optional[str] = None,
        near: Optional[str] = None,
        radius: Optional[str] = None,
        polygon: Optional[str] = None,
        homestead: Optional[bool] = None,
        just_value_min: Optional[int] = None,
        just_value_max: Optional[int] = None,
        use_code: Optional[List[str]] = None,
        zip: Optional[List[str]] = None,
        city: Optional[List[str]] = None,
        owner_type: Optional[Literal["entity", "person"]] = None,
        sort: Optional[Literal["relevance", "face_desc", "face_asc", "year_newest", "sale_date_desc", "sale_newest", "rate_asc", "rate_desc", "distance_asc"]] = None,
        facets: Optional[List[Literal["county", "status", "tax_year", "vendor", "redeemed", "holder_group"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        expand: Optional[List[Literal["parcel"]]] = None,
    ) -> CertificateSearchList:
        """Search certificates: free text, filters, sorts and facets

        GET /api/v1/certificates/search
        """
        return self._call("search_certificates",
            {
                "query": query,
                "county": county,
                "status": status,
                "tax_year": tax_year,
                "holder": holder,
                "holder_group": holder_group,
                "vendor": vendor,
                "face_min": face_min,
                "face_max": face_max,
                "sale_after": sale_after,
                "sale_before": sale_before,
                "redeemed": redeemed,
                "deed_eligible_by": deed_eligible_by,
                "expires_before": expires_before,
                "rate_min": rate_min,
                "rate_max": rate_max,
                "bbox": bbox,
                "near": near,
                "radius": radius,
                "polygon": polygon,
                "homestead": homestead,
                "just_value_min": just_value_min,
                "just_value_max": just_value_max,
                "use_code": use_code,
                "zip": zip,
                "city": city,
                "owner_type": owner_type,
                "sort": sort,
                "facets": facets,
                "limit": limit,
                "offset": offset,
                "expand": expand,
            },
        )

    def search_certificates_csv(
        self,
        *,
        query: Optional[str] = None,
        county: Optional[List[str]] = None,
        status: Optional[List[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]]] = None,
        tax_year: Optional[List[int]] = None,
        holder: Optional[str] = None,
        holder_group: Optional[List[str]] = None,
        vendor: Optional[List[str]] = None,
        face_min: Optional[float] = None,
        face_max: Optional[float] = None,
        sale_after: Optional[str] = None,
        sale_before: Optional[str] = None,
        redeemed: Optional[bool] = None,
        deed_eligible_by: Optional[str] = None,
        expires_before: Optional[str] = None,
        rate_min: Optional[float] = None,
        rate_max: Optional[float] = None,
        bbox: Optional[str] = None,
        near: Optional[str] = None,
        radius: Optional[str] = None,
        polygon: Optional[str] = None,
        homestead: Optional[bool] = None,
        just_value_min: Optional[int] = None,
        just_value_max: Optional[int] = None,
        use_code: Optional[List[str]] = None,
        zip: Optional[List[str]] = None,
        city: Optional[List[str]] = None,
        owner_type: Optional[Literal["entity", "person"]] = None,
        sort: Optional[Literal["relevance", "face_desc", "face_asc", "year_newest", "sale_date_desc", "sale_newest", "rate_asc", "rate_desc", "distance_asc"]] = None,
        facets: Optional[List[Literal["county", "status", "tax_year", "vendor", "redeemed", "holder_group"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        expand: Optional[List[Literal["parcel"]]] = None,
    ) -> str:
        """Search certificates: free text, filters, sorts and facets, as CSV text (format=csv).

        GET /api/v1/certificates/search
        """
        return self._csv("search_certificates",
            {
                "query": query,
                "county": county,
                "status": status,
                "tax_year": tax_year,
                "holder": holder,
                "holder_group": holder_group,
                "vendor": vendor,
                "face_min": face_min,
                "face_max": face_max,
                "sale_after": sale_after,
                "sale_before": sale_before,
                "redeemed": redeemed,
                "deed_eligible_by": deed_eligible_by,
                "expires_before": expires_before,
                "rate_min": rate_min,
                "rate_max": rate_max,
                "bbox": bbox,
                "near": near,
                "radius": radius,
                "polygon": polygon,
                "homestead": homestead,
                "just_value_min": just_value_min,
                "just_value_max": just_value_max,
                "use_code": use_code,
                "zip": zip,
                "city": city,
                "owner_type": owner_type,
                "sort": sort,
                "facets": facets,
                "limit": limit,
                "offset": offset,
                "expand": expand,
            },
        )

    def iter_search_certificates(
        self,
        *,
        query: Optional[str] = None,
        county: Optional[List[str]] = None,
        status: Optional[List[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]]] = None,
        tax_year: Optional[List[int]] = None,
        holder: Optional[str] = None,
        holder_group: Optional[List[str]] = None,
        vendor: Optional[List[str]] = None,
        face_min: Optional[float] = None,
        face_max: Optional[float] = None,
        sale_after: Optional[str] = None,
        sale_before: Optional[str] = None,
        redeemed: Optional[bool] = None,
        deed_eligible_by: Optional[str] = None,
        expires_before: Optional[str] = None,
        rate_min: Optional[float] = None,
        rate_max: Optional[float] = None,
        bbox: Optional[str] = None,
        near: Optional[str] = None,
        radius: Optional[str] = None,
        polygon: Optional[str] = None,
        homestead: Optional[bool] = None,
        just_value_min: Optional[int] = None,
        just_value_max: Optional[int] = None,
        use_code: Optional[List[str]] = None,
        zip: Optional[List[str]] = None,
        city: Optional[List[str]] = None,
        owner_type: Optional[Literal["entity", "person"]] = None,
        sort: Optional[Literal["relevance", "face_desc", "face_asc", "year_newest", "sale_date_desc", "sale_newest", "rate_asc", "rate_desc", "distance_asc"]] = None,
        facets: Optional[List[Literal["county", "status", "tax_year", "vendor", "redeemed", "holder_group"]]] = None,
        limit: Optional[int] = None,
        expand: Optional[List[Literal["parcel"]]] = None,
    ) -> Iterator[CertificateView]:
        """Search certificates: free text, filters, sorts and facets: every row of every page, one at a time (paged by offset).

        GET /api/v1/certificates/search
        """
        return self._rows("search_certificates",
            {
                "query": query,
                "county": county,
                "status": status,
                "tax_year": tax_year,
                "holder": holder,
                "holder_group": holder_group,
                "vendor": vendor,
                "face_min": face_min,
                "face_max": face_max,
                "sale_after": sale_after,
                "sale_before": sale_before,
                "redeemed": redeemed,
                "deed_eligible_by": deed_eligible_by,
                "expires_before": expires_before,
                "rate_min": rate_min,
                "rate_max": rate_max,
                "bbox": bbox,
                "near": near,
                "radius": radius,
                "polygon": polygon,
                "homestead": homestead,
                "just_value_min": just_value_min,
                "just_value_max": just_value_max,
                "use_code": use_code,
                "zip": zip,
                "city": city,
                "owner_type": owner_type,
                "sort": sort,
                "facets": facets,
                "limit": limit,
                "expand": expand,
            },
        )

    def get_certificates_by_parcel(
        self,
        *,
        county: str,
        parcel_id: str,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        expand: Optional[List[Literal["parcel"]]] = None,
    ) -> CertificateList:
        """Every certificate of one parcel, all tax years, newest first

        GET /api/v1/certificates/by-parcel
        """
        return self._call("get_certificates_by_parcel",
            {
                "county": county,
                "parcel_id": parcel_id,
                "limit": limit,
                "offset": offset,
                "expand": expand,
            },
        )

    def get_certificates_by_parcel_csv(
        self,
        *,
        county: str,
        parcel_id: str,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        expand: Optional[List[Literal["parcel"]]] = None,
    ) -> str:
        """Every certificate of one parcel, all tax years, newest first, as CSV text (format=csv).

        GET /api/v1/certificates/by-parcel
        """
        return self._csv("get_certificates_by_parcel",
            {
                "county": county,
                "parcel_id": parcel_id,
                "limit": limit,
                "offset": offset,
                "expand": expand,
            },
        )

    def iter_get_certificates_by_parcel(
        self,
        *,
        county: str,
        parcel_id: str,
        limit: Optional[int] = None,
        expand: Optional[List[Literal["parcel"]]] = None,
    ) -> Iterator[CertificateView]:
        """Every certificate of one parcel, all tax years, newest first: every row of every page, one at a time (paged by offset).

        GET /api/v1/certificates/by-parcel
        """
        return self._rows("get_certificates_by_parcel",
            {
                "county": county,
                "parcel_id": parcel_id,
                "limit": limit,
                "expand": expand,
            },
        )

    def get_certificate_counts(
        self,
        *,
        county: Optional[str] = None,
        tax_year: Optional[int] = None,
        rate_min: Optional[float] = None,
        rate_max: Optional[float] = None,
        bbox: Optional[str] = None,
        near: Optional[str] = None,
        radius: Optional[str] = None,
        polygon: Optional[str] = None,
        homestead: Optional[bool] = None,
        just_value_min: Optional[int] = None,
        just_value_max: Optional[int] = None,
        use_code: Optional[List[str]] = None,
        zip: Optional[List[str]] = None,
        city: Optional[List[str]] = None,
        owner_type: Optional[Literal["entity", "person"]] = None,
    ) -> CertificateCountsResponse:
        """Certificate counts per status, optionally for one county and tax year and within map and parcel filters

        GET /api/v1/certificates/counts
        """
        return self._call("get_certificate_counts",
            {
                "county": county,
                "tax_year": tax_year,
                "rate_min": rate_min,
                "rate_max": rate_max,
                "bbox": bbox,
                "near": near,
                "radius": radius,
                "polygon": polygon,
                "homestead": homestead,
                "just_value_min": just_value_min,
                "just_value_max": just_value_max,
                "use_code": use_code,
                "zip": zip,
                "city": city,
                "owner_type": owner_type,
            },
        )

    def get_certificate_geo_grid(
        self,
        *,
        zoom: int,
        query: Optional[str] = None,
        county: Optional[List[str]] = None,
        status: Optional[List[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]]] = None,
        tax_year: Optional[List[int]] = None,
        holder: Optional[str] = None,
        holder_group: Optional[List[str]] = None,
        vendor: Optional[List[str]] = None,
        face_min: Optional[float] = None,
        face_max: Optional[float] = None,
        sale_after: Optional[str] = None,
        sale_before: Optional[str] = None,
        redeemed: Optional[bool] = None,
        deed_eligible_by: Optional[str] = None,
        expires_before: Optional[str] = None,
        rate_min: Optional[float] = None,
        rate_max: Optional[float] = None,
        bbox: Optional[str] = None,
        near: Optional[str] = None,
        radius: Optional[str] = None,
        polygon: Optional[str] = None,
        homestead: Optional[bool] = None,
        just_value_min: Optional[int] = None,
        just_value_max: Optional[int] = None,
        use_code: Optional[List[str]] = None,
        zip: Optional[List[str]] = None,
        city: Optional[List[str]] = None,
        owner_type: Optional[Literal["entity", "person"]] = None,
    ) -> CertificateGeoGridResponse:
        """Map cells: certificates within the search filters counted per web map tile

        GET /api/v1/certificates/geo-grid
        """
        return self._call("get_certificate_geo_grid",
            {
                "zoom": zoom,
                "query": query,
                "county": county,
                "status": status,
                "tax_year": tax_year,
                "holder": holder,
                "holder_group": holder_group,
                "vendor": vendor,
                "face_min": face_min,
                "face_max": face_max,
                "sale_after": sale_after,
                "sale_before": sale_before,
                "redeemed": redeemed,
                "deed_eligible_by": deed_eligible_by,
                "expires_before": expires_before,
                "rate_min": rate_min,
                "rate_max": rate_max,
                "bbox": bbox,
                "near": near,
                "radius": radius,
                "polygon": polygon,
                "homestead": homestead,
                "just_value_min": just_value_min,
                "just_value_max": just_value_max,
                "use_code": use_code,
                "zip": zip,
                "city": city,
                "owner_type": owner_type,
            },
        )

    def get_certificate_fields(self) -> CertificateFieldsResponse:
        """The certificate field dictionary

        GET /api/v1/certificates/fields
        """
        return self._call("get_certificate_fields", {})

    def get_certificate_freshness(self) -> CertificateFreshnessResponse:
        """How fresh the certificate data is (to decide whether to re-pull)

        GET /api/v1/certificates/freshness
        """
        return self._call("get_certificate_freshness", {})

    def get_certificate(
        self,
        id: str,
        *,
        expand: Optional[List[Literal["parcel"]]] = None,
        format: Optional[Literal["json", "geojson"]] = None,
    ) -> CertificateResponse:
        """One certificate by id (cert_<id>)

        GET /api/v1/certificates/{id}
        """
        return self._call("get_certificate", {"expand": expand, "format": format, "id": id})

    def search_certificate_sales(
        self,
        *,
        county: Optional[List[str]] = None,
        tax_year: Optional[List[int]] = None,
        vendor: Optional[str] = None,
        sale_after: Optional[str] = None,
        sale_before: Optional[str] = None,
        sort: Optional[Literal["sale_date_desc", "sale_date_asc", "year_newest", "year_oldest", "face_desc", "certificates_desc"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> CertificateSaleList:
        """Annual county certificate sales, with their status as of today

        GET /api/v1/certificate-sales/search
        """
        return self._call("search_certificate_sales",
            {
                "county": county,
                "tax_year": tax_year,
                "vendor": vendor,
                "sale_after": sale_after,
                "sale_before": sale_before,
                "sort": sort,
                "limit": limit,
                "offset": offset,
            },
        )

    def search_certificate_sales_csv(
        self,
        *,
        county: Optional[List[str]] = None,
        tax_year: Optional[List[int]] = None,
        vendor: Optional[str] = None,
        sale_after: Optional[str] = None,
        sale_before: Optional[str] = None,
        sort: Optional[Literal["sale_date_desc", "sale_date_asc", "year_newest", "year_oldest", "face_desc", "certificates_desc"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> str:
        """Annual county certificate sales, with their status as of today, as CSV text (format=csv).

        GET /api/v1/certificate-sales/search
        """
        return self._csv("search_certificate_sales",
            {
                "county": county,
                "tax_year": tax_year,
                "vendor": vendor,
                "sale_after": sale_after,
                "sale_before": sale_before,
                "sort": sort,
                "limit": limit,
                "offset": offset,
            },
        )

    def iter_search_certificate_sales(
        self,
        *,
        county: Optional[List[str]] = None,
        tax_year: Optional[List[int]] = None,
        vendor: Optional[str] = None,
        sale_after: Optional[str] = None,
        sale_before: Optional[str] = None,
        sort: Optional[Literal["sale_date_desc", "sale_date_asc", "year_newest", "year_oldest", "face_desc", "certificates_desc"]] = None,
        limit: Optional[int] = None,
    ) -> Iterator[CertificateSale]:
        """Annual county certificate sales, with their status as of today: every row of every page, one at a time (paged by offset).

        GET /api/v1/certificate-sales/search
        """
        return self._rows("search_certificate_sales",
            {
                "county": county,
                "tax_year": tax_year,
                "vendor": vendor,
                "sale_after": sale_after,
                "sale_before": sale_before,
                "sort": sort,
                "limit": limit,
            },
        )

    def search_holders(
        self,
        *,
        query: Optional[str] = None,
        county: Optional[List[str]] = None,
        min_certificates: Optional[int] = None,
        sort: Optional[Literal["face_desc", "certificates_desc", "count_desc", "name_asc"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> HolderList:
        """Certificate holders by name, county and holdings

        GET /api/v1/holders/search
        """
        return self._call("search_holders",
            {
                "query": query,
                "county": county,
                "min_certificates": min_certificates,
                "sort": sort,
                "limit": limit,
                "offset": offset,
            },
        )

    def search_holders_csv(
        self,
        *,
        query: Optional[str] = None,
        county: Optional[List[str]] = None,
        min_certificates: Optional[int] = None,
        sort: Optional[Literal["face_desc", "certificates_desc", "count_desc", "name_asc"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> str:
        """Certificate holders by name, county and holdings, as CSV text (format=csv).

        GET /api/v1/holders/search
        """
        return self._csv("search_holders",
            {
                "query": query,
                "county": county,
                "min_certificates": min_certificates,
                "sort": sort,
                "limit": limit,
                "offset": offset,
            },
        )

    def iter_search_holders(
        self,
        *,
        query: Optional[str] = None,
        county: Optional[List[str]] = None,
        min_certificates: Optional[int] = None,
        sort: Optional[Literal["face_desc", "certificates_desc", "count_desc", "name_asc"]] = None,
        limit: Optional[int] = None,
    ) -> Iterator[Holder]:
        """Certificate holders by name, county and holdings: every row of every page, one at a time (paged by offset).

        GET /api/v1/holders/search
        """
        return self._rows("search_holders",
            {
                "query": query,
                "county": county,
                "min_certificates": min_certificates,
                "sort": sort,
                "limit": limit,
            },
        )

    def get_holder(self, id: str) -> HolderResponse:
        """One holder by id

        GET /api/v1/holders/{id}
        """
        return self._call("get_holder", {"id": id})

    def search_lands_available(
        self,
        *,
        county: Optional[List[str]] = None,
        tax_year: Optional[List[int]] = None,
        min_opening_bid: Optional[float] = None,
        max_opening_bid: Optional[float] = None,
        sort: Optional[Literal["opening_bid_asc", "opening_bid_desc", "available_since_desc"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> LandsAvailableList:
        """Parcels on the counties' lands-available lists

        GET /api/v1/lands-available/search
        """
        return self._call("search_lands_available",
            {
                "county": county,
                "tax_year": tax_year,
                "min_opening_bid": min_opening_bid,
                "max_opening_bid": max_opening_bid,
                "sort": sort,
                "limit": limit,
                "offset": offset,
            },
        )

    def search_lands_available_csv(
        self,
        *,
        county: Optional[List[str]] = None,
        tax_year: Optional[List[int]] = None,
        min_opening_bid: Optional[float] = None,
        max_opening_bid: Optional[float] = None,
        sort: Optional[Literal["opening_bid_asc", "opening_bid_desc", "available_since_desc"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> str:
        """Parcels on the counties' lands-available lists, as CSV text (format=csv).

        GET /api/v1/lands-available/search
        """
        return self._csv("search_lands_available",
            {
                "county": county,
                "tax_year": tax_year,
                "min_opening_bid": min_opening_bid,
                "max_opening_bid": max_opening_bid,
                "sort": sort,
                "limit": limit,
                "offset": offset,
            },
        )

    def iter_search_lands_available(
        self,
        *,
        county: Optional[List[str]] = None,
        tax_year: Optional[List[int]] = None,
        min_opening_bid: Optional[float] = None,
        max_opening_bid: Optional[float] = None,
        sort: Optional[Literal["opening_bid_asc", "opening_bid_desc", "available_since_desc"]] = None,
        limit: Optional[int] = None,
    ) -> Iterator[LandsAvailable]:
        """Parcels on the counties' lands-available lists: every row of every page, one at a time (paged by offset).

        GET /api/v1/lands-available/search
        """
        return self._rows("search_lands_available",
            {
                "county": county,
                "tax_year": tax_year,
                "min_opening_bid": min_opening_bid,
                "max_opening_bid": max_opening_bid,
                "sort": sort,
                "limit": limit,
            },
        )

    def list_sources(
        self,
        *,
        county: Optional[str] = None,
        vendor: Optional[str] = None,
        source_kind: Optional[str] = None,
        active: Optional[bool] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> SourceList:
        """The feed registry: one row per county and tax year

        GET /api/v1/sources
        """
        return self._call("list_sources",
            {
                "county": county,
                "vendor": vendor,
                "source_kind": source_kind,
                "active": active,
                "limit": limit,
                "offset": offset,
            },
        )

    def list_sources_csv(
        self,
        *,
        county: Optional[str] = None,
        vendor: Optional[str] = None,
        source_kind: Optional[str] = None,
        active: Optional[bool] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> str:
        """The feed registry: one row per county and tax year, as CSV text (format=csv).

        GET /api/v1/sources
        """
        return self._csv("list_sources",
            {
                "county": county,
                "vendor": vendor,
                "source_kind": source_kind,
                "active": active,
                "limit": limit,
                "offset": offset,
            },
        )

    def iter_list_sources(
        self,
        *,
        county: Optional[str] = None,
        vendor: Optional[str] = None,
        source_kind: Optional[str] = None,
        active: Optional[bool] = None,
        limit: Optional[int] = None,
    ) -> Iterator[Source]:
        """The feed registry: one row per county and tax year: every row of every page, one at a time (paged by offset).

        GET /api/v1/sources
        """
        return self._rows("list_sources",
            {
                "county": county,
                "vendor": vendor,
                "source_kind": source_kind,
                "active": active,
                "limit": limit,
            },
        )

    def get_county_sources(
        self,
        county: str,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> SourceList:
        """Every source of one county, newest tax year first

        GET /api/v1/sources/{county}
        """
        return self._call("get_county_sources", {"limit": limit, "offset": offset, "county": county})

    def get_county_sources_csv(
        self,
        county: str,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> str:
        """Every source of one county, newest tax year first, as CSV text (format=csv).

        GET /api/v1/sources/{county}
        """
        return self._csv("get_county_sources", {"limit": limit, "offset": offset, "county": county})

    def iter_get_county_sources(self, county: str, *, limit: Optional[int] = None) -> Iterator[Source]:
        """Every source of one county, newest tax year first: every row of every page, one at a time (paged by offset).

        GET /api/v1/sources/{county}
        """
        return self._rows("get_county_sources", {"limit": limit, "county": county})

    def get_bid_rate_analytics(
        self,
        *,
        county: Optional[List[str]] = None,
        tax_year: Optional[List[int]] = None,
        vendor: Optional[List[str]] = None,
        bbox: Optional[str] = None,
        near: Optional[str] = None,
        radius: Optional[str] = None,
        polygon: Optional[str] = None,
        homestead: Optional[bool] = None,
        just_value_min: Optional[int] = None,
        just_value_max: Optional[int] = None,
        use_code: Optional[List[str]] = None,
        zip: Optional[List[str]] = None,
        city: Optional[List[str]] = None,
        owner_type: Optional[Literal["entity", "person"]] = None,
    ) -> BidRateAnalyticsResponse:
        """Clearing rates: where bids still clear above 5%

        GET /api/v1/analytics/bid-rates
        """
        return self._call("get_bid_rate_analytics",
            {
                "county": county,
                "tax_year": tax_year,
                "vendor": vendor,
                "bbox": bbox,
                "near": near,
                "radius": radius,
                "polygon": polygon,
                "homestead": homestead,
                "just_value_min": just_value_min,
                "just_value_max": just_value_max,
                "use_code": use_code,
                "zip": zip,
                "city": city,
                "owner_type": owner_type,
            },
        )

    def get_usage(self) -> UsageResponse:
        """The calling key's credit usage this calendar month (UTC); costs no credit

        GET /api/v1/account/usage
        """
        return self._call("get_usage", {})

    def get_redemption_quote(self, id: str, *, date: Optional[str] = None) -> RedemptionQuoteResponse:
        """What a certificate pays off on a day (redemption quote)

        GET /api/v1/certificates/{id}/redemption
        """
        return self._call("get_redemption_quote", {"date": date, "id": id})

    def get_certificate_timeline(self, id: str, *, date: Optional[str] = None) -> CertificateTimelineResponse:
        """A certificate's statutory dates and next deadline

        GET /api/v1/certificates/{id}/timeline
        """
        return self._call("get_certificate_timeline", {"date": date, "id": id})

    def get_deed_estimate(self, id: str, *, date: Optional[str] = None) -> DeedEstimateResponse:
        """What applying for a tax deed would cost, as far as the data knows

        GET /api/v1/certificates/{id}/deed-estimate
        """
        return self._call("get_deed_estimate", {"date": date, "id": id})

    def search_holder_groups(
        self,
        *,
        county: Optional[List[str]] = None,
        tax_year: Optional[List[int]] = None,
        query: Optional[str] = None,
        sort: Optional[Literal["certificates_desc", "face_desc", "median_rate_asc", "name_asc"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> HolderGroupList:
        """Holder groups: who the competition is

        GET /api/v1/analytics/holders
        """
        return self._call("search_holder_groups",
            {
                "county": county,
                "tax_year": tax_year,
                "query": query,
                "sort": sort,
                "limit": limit,
                "offset": offset,
            },
        )

    def iter_search_holder_groups(
        self,
        *,
        county: Optional[List[str]] = None,
        tax_year: Optional[List[int]] = None,
        query: Optional[str] = None,
        sort: Optional[Literal["certificates_desc", "face_desc", "median_rate_asc", "name_asc"]] = None,
        limit: Optional[int] = None,
    ) -> Iterator[HolderGroup]:
        """Holder groups: who the competition is: every row of every page, one at a time (paged by offset).

        GET /api/v1/analytics/holders
        """
        return self._rows("search_holder_groups",
            {
                "county": county,
                "tax_year": tax_year,
                "query": query,
                "sort": sort,
                "limit": limit,
            },
        )

    def get_redemption_curve(
        self,
        *,
        county: Optional[List[str]] = None,
        tax_year: Optional[List[int]] = None,
        vendor: Optional[List[str]] = None,
        face_min: Optional[float] = None,
        face_max: Optional[float] = None,
        rate_min: Optional[float] = None,
        rate_max: Optional[float] = None,
        bbox: Optional[str] = None,
        near: Optional[str] = None,
        radius: Optional[str] = None,
        polygon: Optional[str] = None,
        homestead: Optional[bool] = None,
        just_value_min: Optional[int] = None,
        just_value_max: Optional[int] = None,
        use_code: Optional[List[str]] = None,
        zip: Optional[List[str]] = None,
        city: Optional[List[str]] = None,
        owner_type: Optional[Literal["entity", "person"]] = None,
        as_of: Optional[str] = None,
    ) -> RedemptionCurveResponse:
        """Redemption curve: how soon certificates redeem

        GET /api/v1/analytics/redemption-curve
        """
        return self._call("get_redemption_curve",
            {
                "county": county,
                "tax_year": tax_year,
                "vendor": vendor,
                "face_min": face_min,
                "face_max": face_max,
                "rate_min": rate_min,
                "rate_max": rate_max,
                "bbox": bbox,
                "near": near,
                "radius": radius,
                "polygon": polygon,
                "homestead": homestead,
                "just_value_min": just_value_min,
                "just_value_max": just_value_max,
                "use_code": use_code,
                "zip": zip,
                "city": city,
                "owner_type": owner_type,
                "as_of": as_of,
            },
        )

    def get_expected_yield(
        self,
        *,
        county: Optional[List[str]] = None,
        tax_year: Optional[List[int]] = None,
        vendor: Optional[List[str]] = None,
        face_min: Optional[float] = None,
        face_max: Optional[float] = None,
        rate_min: Optional[float] = None,
        rate_max: Optional[float] = None,
        bbox: Optional[str] = None,
        near: Optional[str] = None,
        radius: Optional[str] = None,
        polygon: Optional[str] = None,
        homestead: Optional[bool] = None,
        just_value_min: Optional[int] = None,
        just_value_max: Optional[int] = None,
        use_code: Optional[List[str]] = None,
        zip: Optional[List[str]] = None,
        city: Optional[List[str]] = None,
        owner_type: Optional[Literal["entity", "person"]] = None,
        as_of: Optional[str] = None,
        rates: Optional[List[float]] = None,
        horizon_months: Optional[int] = None,
        target_yield: Optional[float] = None,
    ) -> ExpectedYieldResponse:
        """Expected yield by bid rate

        GET /api/v1/analytics/expected-yield
        """
        return self._call("get_expected_yield",
            {
                "county": county,
                "tax_year": tax_year,
                "vendor": vendor,
                "face_min": face_min,
                "face_max": face_max,
                "rate_min": rate_min,
                "rate_max": rate_max,
                "bbox": bbox,
                "near": near,
                "radius": radius,
                "polygon": polygon,
                "homestead": homestead,
                "just_value_min": just_value_min,
                "just_value_max": just_value_max,
                "use_code": use_code,
                "zip": zip,
                "city": city,
                "owner_type": owner_type,
                "as_of": as_of,
                "rates": rates,
                "horizon_months": horizon_months,
                "target_yield": target_yield,
            },
        )

    def list_events(
        self,
        *,
        after: Optional[str] = None,
        type: Optional[List[Literal["certificate.created", "certificates.loaded", "certificate.redeemed", "certificate.tax_deed_applied", "certificate.lands_available", "certificate.cancelled", "certificate.status_changed", "certificate.updated", "certificate_sale.created", "certificate_sale.status_changed", "county.coverage_changed", "saved_search.match_added", "saved_search.match_removed", "saved_search.match_updated", "saved_search.matches_loaded", "portfolio.deadline_approaching", "portfolio.position_changed"]]] = None,
        county: Optional[List[str]] = None,
        limit: Optional[int] = None,
    ) -> EventList:
        """The change feed: what changed, oldest first after a cursor

        GET /api/v1/events
        """
        return self._call("list_events", {"after": after, "type": type, "county": county, "limit": limit})

    def iter_list_events(
        self,
        *,
        type: Optional[List[Literal["certificate.created", "certificates.loaded", "certificate.redeemed", "certificate.tax_deed_applied", "certificate.lands_available", "certificate.cancelled", "certificate.status_changed", "certificate.updated", "certificate_sale.created", "certificate_sale.status_changed", "county.coverage_changed", "saved_search.match_added", "saved_search.match_removed", "saved_search.match_updated", "saved_search.matches_loaded", "portfolio.deadline_approaching", "portfolio.position_changed"]]] = None,
        county: Optional[List[str]] = None,
        limit: Optional[int] = None,
    ) -> Iterator[Event]:
        """The change feed: what changed, oldest first after a cursor: every row of every page, one at a time (paged by the `after` cursor).

        GET /api/v1/events
        """
        return self._rows("list_events", {"type": type, "county": county, "limit": limit})

    def list_webhook_endpoints(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> WebhookEndpointList:
        """Your webhook endpoints

        GET /api/v1/webhook-endpoints
        """
        return self._call("list_webhook_endpoints", {"limit": limit, "offset": offset})

    def iter_list_webhook_endpoints(self, *, limit: Optional[int] = None) -> Iterator[WebhookEndpoint]:
        """Your webhook endpoints: every row of every page, one at a time (paged by offset).

        GET /api/v1/webhook-endpoints
        """
        return self._rows("list_webhook_endpoints", {"limit": limit})

    def create_webhook_endpoint(
        self,
        body: CreateWebhookEndpointBody,
        *,
        idempotency_key: Optional[str] = None,
    ) -> WebhookEndpointSecretResponse:
        """Create a webhook endpoint

        POST /api/v1/webhook-endpoints
        """
        return self._call("create_webhook_endpoint", {"idempotency_key": idempotency_key, "body": body})

    def list_webhook_deliveries(
        self,
        id: str,
        *,
        status: Optional[Literal["pending", "delivered", "failed"]] = None,
        event_id: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> WebhookDeliveryList:
        """Deliveries to one of your webhook endpoints, with every attempt

        GET /api/v1/webhook-endpoints/{id}/deliveries
        """
        return self._call("list_webhook_deliveries",
            {
                "status": status,
                "event_id": event_id,
                "limit": limit,
                "offset": offset,
                "id": id,
            },
        )

    def iter_list_webhook_deliveries(
        self,
        id: str,
        *,
        status: Optional[Literal["pending", "delivered", "failed"]] = None,
        event_id: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> Iterator[WebhookDelivery]:
        """Deliveries to one of your webhook endpoints, with every attempt: every row of every page, one at a time (paged by offset).

        GET /api/v1/webhook-endpoints/{id}/deliveries
        """
        return self._rows("list_webhook_deliveries",
            {
                "status": status,
                "event_id": event_id,
                "limit": limit,
                "id": id,
            },
        )

    def get_webhook_endpoint(self, id: str) -> WebhookEndpointResponse:
        """One of your webhook endpoints

        GET /api/v1/webhook-endpoints/{id}
        """
        return self._call("get_webhook_endpoint", {"id": id})

    def update_webhook_endpoint(
        self,
        id: str,
        body: UpdateWebhookEndpointBody,
        *,
        idempotency_key: Optional[str] = None,
    ) -> WebhookEndpointResponse:
        """Change a webhook endpoint

        PATCH /api/v1/webhook-endpoints/{id}
        """
        return self._call("update_webhook_endpoint",
            {
                "id": id,
                "idempotency_key": idempotency_key,
                "body": body,
            },
        )

    def delete_webhook_endpoint(self, id: str, *, idempotency_key: Optional[str] = None) -> DeletedResponse:
        """Delete a webhook endpoint

        DELETE /api/v1/webhook-endpoints/{id}
        """
        return self._call("delete_webhook_endpoint", {"id": id, "idempotency_key": idempotency_key})

    def rotate_webhook_endpoint_secret(
        self,
        id: str,
        *,
        idempotency_key: Optional[str] = None,
    ) -> WebhookEndpointSecretResponse:
        """Rotate a webhook endpoint's signing secret

        POST /api/v1/webhook-endpoints/{id}/rotate-secret
        """
        return self._call("rotate_webhook_endpoint_secret", {"id": id, "idempotency_key": idempotency_key})

    def list_saved_searches(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> SavedSearchList:
        """Your saved searches

        GET /api/v1/saved-searches
        """
        return self._call("list_saved_searches", {"limit": limit, "offset": offset})

    def iter_list_saved_searches(self, *, limit: Optional[int] = None) -> Iterator[SavedSearch]:
        """Your saved searches: every row of every page, one at a time (paged by offset).

        GET /api/v1/saved-searches
        """
        return self._rows("list_saved_searches", {"limit": limit})

    def create_saved_search(
        self,
        body: CreateSavedSearchBody,
        *,
        idempotency_key: Optional[str] = None,
    ) -> SavedSearchResponse:
        """Save a certificate search

        POST /api/v1/saved-searches
        """
        return self._call("create_saved_search", {"idempotency_key": idempotency_key, "body": body})

    def get_saved_search(self, id: str) -> SavedSearchResponse:
        """One of your saved searches

        GET /api/v1/saved-searches/{id}
        """
        return self._call("get_saved_search", {"id": id})

    def update_saved_search(
        self,
        id: str,
        body: UpdateSavedSearchBody,
        *,
        idempotency_key: Optional[str] = None,
    ) -> SavedSearchResponse:
        """Rename a saved search or change its filters

        PATCH /api/v1/saved-searches/{id}
        """
        return self._call("update_saved_search",
            {
                "id": id,
                "idempotency_key": idempotency_key,
                "body": body,
            },
        )

    def delete_saved_search(self, id: str, *, idempotency_key: Optional[str] = None) -> DeletedResponse:
        """Delete a saved search

        DELETE /api/v1/saved-searches/{id}
        """
        return self._call("delete_saved_search", {"id": id, "idempotency_key": idempotency_key})

    def list_saved_search_matches(
        self,
        id: str,
        *,
        sort: Optional[Literal["relevance", "face_desc", "face_asc", "year_newest", "sale_date_desc", "sale_newest", "rate_asc", "rate_desc", "distance_asc"]] = None,
        facets: Optional[List[Literal["county", "status", "tax_year", "vendor", "redeemed", "holder_group"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        expand: Optional[List[Literal["parcel"]]] = None,
    ) -> CertificateSearchList:
        """The certificates a saved search selects

        GET /api/v1/saved-searches/{id}/matches
        """
        return self._call("list_saved_search_matches",
            {
                "sort": sort,
                "facets": facets,
                "limit": limit,
                "offset": offset,
                "expand": expand,
                "id": id,
            },
        )

    def list_saved_search_matches_csv(
        self,
        id: str,
        *,
        sort: Optional[Literal["relevance", "face_desc", "face_asc", "year_newest", "sale_date_desc", "sale_newest", "rate_asc", "rate_desc", "distance_asc"]] = None,
        facets: Optional[List[Literal["county", "status", "tax_year", "vendor", "redeemed", "holder_group"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        expand: Optional[List[Literal["parcel"]]] = None,
    ) -> str:
        """The certificates a saved search selects, as CSV text (format=csv).

        GET /api/v1/saved-searches/{id}/matches
        """
        return self._csv("list_saved_search_matches",
            {
                "sort": sort,
                "facets": facets,
                "limit": limit,
                "offset": offset,
                "expand": expand,
                "id": id,
            },
        )

    def iter_list_saved_search_matches(
        self,
        id: str,
        *,
        sort: Optional[Literal["relevance", "face_desc", "face_asc", "year_newest", "sale_date_desc", "sale_newest", "rate_asc", "rate_desc", "distance_asc"]] = None,
        facets: Optional[List[Literal["county", "status", "tax_year", "vendor", "redeemed", "holder_group"]]] = None,
        limit: Optional[int] = None,
        expand: Optional[List[Literal["parcel"]]] = None,
    ) -> Iterator[CertificateView]:
        """The certificates a saved search selects: every row of every page, one at a time (paged by offset).

        GET /api/v1/saved-searches/{id}/matches
        """
        return self._rows("list_saved_search_matches",
            {
                "sort": sort,
                "facets": facets,
                "limit": limit,
                "expand": expand,
                "id": id,
            },
        )

    def list_portfolios(self, *, limit: Optional[int] = None, offset: Optional[int] = None) -> PortfolioList:
        """Your portfolios

        GET /api/v1/portfolios
        """
        return self._call("list_portfolios", {"limit": limit, "offset": offset})

    def iter_list_portfolios(self, *, limit: Optional[int] = None) -> Iterator[Portfolio]:
        """Your portfolios: every row of every page, one at a time (paged by offset).

        GET /api/v1/portfolios
        """
        return self._rows("list_portfolios", {"limit": limit})

    def create_portfolio(
        self,
        body: CreatePortfolioBody,
        *,
        idempotency_key: Optional[str] = None,
    ) -> PortfolioResponse:
        """Create a portfolio

        POST /api/v1/portfolios
        """
        return self._call("create_portfolio", {"idempotency_key": idempotency_key, "body": body})

    def get_portfolio(self, id: str) -> PortfolioResponse:
        """One of your portfolios

        GET /api/v1/portfolios/{id}
        """
        return self._call("get_portfolio", {"id": id})

    def update_portfolio(
        self,
        id: str,
        body: UpdatePortfolioBody,
        *,
        idempotency_key: Optional[str] = None,
    ) -> PortfolioResponse:
        """Rename a portfolio or change the holder group it follows

        PATCH /api/v1/portfolios/{id}
        """
        return self._call("update_portfolio", {"id": id, "idempotency_key": idempotency_key, "body": body})

    def delete_portfolio(self, id: str, *, idempotency_key: Optional[str] = None) -> DeletedResponse:
        """Delete a portfolio

        DELETE /api/v1/portfolios/{id}
        """
        return self._call("delete_portfolio", {"id": id, "idempotency_key": idempotency_key})

    def list_portfolio_positions(
        self,
        id: str,
        *,
        as_of: Optional[str] = None,
        status: Optional[List[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled", "unresolved"]]] = None,
        county: Optional[List[str]] = None,
        deadline_before: Optional[str] = None,
        sort: Optional[Literal["next_deadline_asc", "payoff_desc", "face_desc", "acquired_desc"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> PortfolioPositionAnswerList:
        """A portfolio's positions as of a day

        GET /api/v1/portfolios/{id}/positions
        """
        return self._call("list_portfolio_positions",
            {
                "as_of": as_of,
                "status": status,
                "county": county,
                "deadline_before": deadline_before,
                "sort": sort,
                "limit": limit,
                "offset": offset,
                "id": id,
            },
        )

    def list_portfolio_positions_csv(
        self,
        id: str,
        *,
        as_of: Optional[str] = None,
        status: Optional[List[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled", "unresolved"]]] = None,
        county: Optional[List[str]] = None,
        deadline_before: Optional[str] = None,
        sort: Optional[Literal["next_deadline_asc", "payoff_desc", "face_desc", "acquired_desc"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> str:
        """A portfolio's positions as of a day, as CSV text (format=csv).

        GET /api/v1/portfolios/{id}/positions
        """
        return self._csv("list_portfolio_positions",
            {
                "as_of": as_of,
                "status": status,
                "county": county,
                "deadline_before": deadline_before,
                "sort": sort,
                "limit": limit,
                "offset": offset,
                "id": id,
            },
        )

    def iter_list_portfolio_positions(
        self,
        id: str,
        *,
        as_of: Optional[str] = None,
        status: Optional[List[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled", "unresolved"]]] = None,
        county: Optional[List[str]] = None,
        deadline_before: Optional[str] = None,
        sort: Optional[Literal["next_deadline_asc", "payoff_desc", "face_desc", "acquired_desc"]] = None,
        limit: Optional[int] = None,
    ) -> Iterator[PortfolioPositionAnswer]:
        """A portfolio's positions as of a day: every row of every page, one at a time (paged by offset).

        GET /api/v1/portfolios/{id}/positions
        """
        return self._rows("list_portfolio_positions",
            {
                "as_of": as_of,
                "status": status,
                "county": county,
                "deadline_before": deadline_before,
                "sort": sort,
                "limit": limit,
                "id": id,
            },
        )

    def add_portfolio_positions(
        self,
        id: str,
        body: AddPortfolioPositionsBody,
        *,
        idempotency_key: Optional[str] = None,
    ) -> PortfolioPositionsReportResponse:
        """Add certificates you hold to a portfolio

        POST /api/v1/portfolios/{id}/positions
        """
        return self._call("add_portfolio_positions",
            {
                "id": id,
                "idempotency_key": idempotency_key,
                "body": body,
            },
        )

    def delete_portfolio_position(
        self,
        id: str,
        position_id: str,
        *,
        idempotency_key: Optional[str] = None,
    ) -> DeletedResponse:
        """Remove a position from a portfolio

        DELETE /api/v1/portfolios/{id}/positions/{position_id}
        """
        return self._call("delete_portfolio_position",
            {
                "id": id,
                "position_id": position_id,
                "idempotency_key": idempotency_key,
            },
        )

    def get_portfolio_summary(self, id: str, *, as_of: Optional[str] = None) -> PortfolioSummaryResponse:
        """A portfolio's summary as of a day

        GET /api/v1/portfolios/{id}/summary
        """
        return self._call("get_portfolio_summary", {"as_of": as_of, "id": id})

    def get_portfolio_calendar(self, id: str) -> str:
        """A portfolio's deadlines as a calendar

        GET /api/v1/portfolios/{id}/calendar.ics
        """
        return self._call("get_portfolio_calendar", {"id": id})

    def create_portfolio_calendar_address(
        self,
        id: str,
        *,
        idempotency_key: Optional[str] = None,
    ) -> PortfolioCalendarAddressResponse:
        """Make a secret calendar address for a portfolio

        POST /api/v1/portfolios/{id}/calendar-address
        """
        return self._call("create_portfolio_calendar_address",
            {
                "id": id,
                "idempotency_key": idempotency_key,
            },
        )

    def delete_portfolio_calendar_address(
        self,
        id: str,
        *,
        idempotency_key: Optional[str] = None,
    ) -> DeletedResponse:
        """Revoke a portfolio's calendar address

        DELETE /api/v1/portfolios/{id}/calendar-address
        """
        return self._call("delete_portfolio_calendar_address",
            {
                "id": id,
                "idempotency_key": idempotency_key,
            },
        )

    def list_bulk_files(
        self,
        *,
        dataset: Optional[Literal["certificates", "certificate-sales", "lands-available", "holders", "counties", "sources"]] = None,
        county: Optional[str] = None,
        tax_year: Optional[int] = None,
        format: Optional[Literal["parquet", "ndjson", "csv"]] = None,
        kind: Optional[Literal["snapshot", "delta"]] = None,
        since: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> BulkFileList:
        """The bulk files: snapshots and daily deltas

        GET /api/v1/bulk/files
        """
        return self._call("list_bulk_files",
            {
                "dataset": dataset,
                "county": county,
                "tax_year": tax_year,
                "format": format,
                "kind": kind,
                "since": since,
                "limit": limit,
                "offset": offset,
            },
        )

    def iter_list_bulk_files(
        self,
        *,
        dataset: Optional[Literal["certificates", "certificate-sales", "lands-available", "holders", "counties", "sources"]] = None,
        county: Optional[str] = None,
        tax_year: Optional[int] = None,
        format: Optional[Literal["parquet", "ndjson", "csv"]] = None,
        kind: Optional[Literal["snapshot", "delta"]] = None,
        since: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> Iterator[BulkFile]:
        """The bulk files: snapshots and daily deltas: every row of every page, one at a time (paged by offset).

        GET /api/v1/bulk/files
        """
        return self._rows("list_bulk_files",
            {
                "dataset": dataset,
                "county": county,
                "tax_year": tax_year,
                "format": format,
                "kind": kind,
                "since": since,
                "limit": limit,
            },
        )

    def download_bulk_file(self, name: str) -> bytes:
        """Download one bulk file

        GET /api/v1/bulk/files/{name}
        """
        return self._call("download_bulk_file", {"name": name})
