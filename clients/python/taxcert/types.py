# Generated from the served OpenAPI document by scripts/write-python-client.ts (npm run clients:write).
# Do not edit: run `npm run clients:write` after changing a schema.

"""The API's shapes as TypedDicts, from components.schemas and the inline objects of the operations."""

# Annotations stay strings (never evaluated), so these load on Python 3.9 and 3.10 too, where
# typing has no NotRequired; type checkers read them as written.
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, TypedDict, Union

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from typing import NotRequired, TypeAlias
    else:
        from typing_extensions import NotRequired, TypeAlias

__all__ = [
    "Certificate",
    "ParcelFacts",
    "CertificateView",
    "CertificateSale",
    "Holder",
    "LandsAvailable",
    "County",
    "Source",
    "Usage",
    "CertificateCounts",
    "CertificateFreshness",
    "FieldDescriptor",
    "CertificateFields",
    "Health",
    "Meta",
    "Pagination",
    "Facets",
    "Error",
    "CertificateSearchList",
    "CertificateList",
    "CertificateResponse",
    "CertificateFeatureCollection",
    "CertificateByIdFeatureCollection",
    "GeoGridCell",
    "CertificateGeoGrid",
    "CertificateGeoGridResponse",
    "CertificateCountsResponse",
    "CertificateFieldsResponse",
    "CertificateFreshnessResponse",
    "CertificateSaleList",
    "HolderList",
    "HolderResponse",
    "LandsAvailableList",
    "CountyListResponse",
    "CountyResponse",
    "SourceList",
    "BulkFile",
    "BulkFileList",
    "UsageResponse",
    "HolderGroup",
    "HolderGroupList",
    "RedemptionQuote",
    "RedemptionQuoteResponse",
    "CertificateTimeline",
    "CertificateTimelineResponse",
    "DeedEstimate",
    "DeedEstimateResponse",
    "BidRateAnalytics",
    "BidRateAnalyticsResponse",
    "RedemptionCurve",
    "RedemptionCurveResponse",
    "ExpectedYield",
    "ExpectedYieldResponse",
    "CertificateEvent",
    "CertificatesLoaded",
    "CertificatesLoadedEvent",
    "CertificateSaleEvent",
    "CountyEvent",
    "Event",
    "EventPagination",
    "EventList",
    "WebhookEndpoint",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookEndpointList",
    "WebhookDeliveryList",
    "WebhookEndpointResponse",
    "WebhookEndpointWithSecret",
    "WebhookEndpointSecretResponse",
    "Deleted",
    "DeletedResponse",
    "SavedSearch",
    "SavedSearchList",
    "SavedSearchResponse",
    "Portfolio",
    "PortfolioList",
    "PortfolioResponse",
    "PortfolioPosition",
    "PortfolioPositionsReport",
    "PortfolioPositionsReportResponse",
    "PortfolioPositionAnswer",
    "PortfolioPositionAnswerList",
    "PortfolioSummary",
    "PortfolioSummaryResponse",
    "PortfolioCalendarAddress",
    "PortfolioCalendarAddressResponse",
    "OpenApiDocument",
    "CertificateCountsCountsItem",
    "MetaCoverage",
    "FacetsValueItem",
    "ErrorError",
    "CertificateFeatureCollectionFeaturesItem",
    "CertificateFeatureCollectionFeaturesItemGeometry",
    "CertificateByIdFeatureCollectionFeaturesItem",
    "CertificateByIdFeatureCollectionFeaturesItemGeometry",
    "GeoGridCellBounds",
    "GeoGridCellBoundsTopLeft",
    "GeoGridCellBoundsBottomRight",
    "HolderGroupMembersItem",
    "CertificateTimelineDates",
    "CertificateTimelineNextDeadline",
    "DeedEstimateOtherCertificatesItem",
    "BidRateAnalyticsScope",
    "BidRateAnalyticsRate",
    "BidRateAnalyticsShares",
    "BidRateAnalyticsHistogramItem",
    "BidRateAnalyticsByCountyItem",
    "RedemptionCurveScope",
    "RedemptionCurveRedeemedShareByItem",
    "RedemptionCurveCurveItem",
    "ExpectedYieldScope",
    "ExpectedYieldRatesItem",
    "CertificateEventData",
    "CertificateEventDataPrevious",
    "CertificatesLoadedEventData",
    "CertificateSaleEventData",
    "CertificateSaleEventDataPrevious",
    "CountyEventData",
    "CountyEventDataPrevious",
    "EventOption5",
    "EventOption5Data",
    "EventOption5DataSavedSearch",
    "EventOption5DataPrevious",
    "EventOption6",
    "EventOption6Data",
    "EventOption6DataSavedSearch",
    "EventOption6DataObject",
    "EventOption7",
    "EventOption7Data",
    "EventOption7DataPortfolio",
    "EventOption7DataPosition",
    "EventOption8",
    "EventOption8Data",
    "EventOption8DataPortfolio",
    "EventOption8DataPosition",
    "EventOption8DataPrevious",
    "SavedSearchParams",
    "PortfolioPositionsReportLinesItemOption1",
    "PortfolioPositionsReportLinesItemOption2",
    "PortfolioPositionsReportLinesItemOption2Error",
    "PortfolioPositionAnswerNextDeadline",
    "PortfolioSummaryByStatus",
    "PortfolioSummaryOutstanding",
    "PortfolioSummaryRedeemed",
    "PortfolioSummaryInterestEarnedByYearItem",
    "PortfolioSummaryDeadlines",
    "PortfolioSummaryDeadlinesWithin7Days",
    "PortfolioSummaryDeadlinesWithin30Days",
    "PortfolioSummaryDeadlinesWithin90Days",
    "CreateWebhookEndpointBody",
    "UpdateWebhookEndpointBody",
    "CreateSavedSearchBody",
    "CreateSavedSearchBodyParams",
    "UpdateSavedSearchBody",
    "UpdateSavedSearchBodyParams",
    "CreatePortfolioBody",
    "UpdatePortfolioBody",
    "AddPortfolioPositionsBody",
    "AddPortfolioPositionsBodyPositionsItem",
]


class Certificate(TypedDict):
    id: str
    certificate_number: str
    county_slug: str
    county_name: str
    parcel_id: str
    tax_year: int
    status: Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]
    face_amount: float
    delinquent_amount: float
    interest_rate: float
    sale_date: str
    holder_id: str
    holder_name: str
    vendor: str
    redeemed: bool
    redeemed_date: Optional[str]
    redemption_amount: Optional[float]
    tax_deed_application_date: Optional[str]
    owner_name: str
    site_address_full: str
    parcel_url: str


class ParcelFacts(TypedDict):
    assessment_year: int
    just_value: int
    land_sqft: int
    use_code: str
    homestead: bool
    situs_address: str
    situs_city: str
    situs_zip: str
    lat: float
    lon: float


class CertificateView(TypedDict):
    id: str
    certificate_number: str
    county_slug: str
    county_name: str
    parcel_id: str
    tax_year: int
    status: Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]
    face_amount: float
    delinquent_amount: float
    interest_rate: float
    sale_date: str
    holder_id: str
    holder_name: str
    vendor: str
    redeemed: bool
    redeemed_date: Optional[str]
    redemption_amount: Optional[float]
    tax_deed_application_date: Optional[str]
    owner_name: str
    site_address_full: str
    parcel_url: str
    parcel: NotRequired[Optional[ParcelFacts]]


class CertificateSale(TypedDict):
    id: str
    county_slug: str
    county_name: str
    tax_year: int
    sale_date: str
    vendor: str
    sale_url: Optional[str]
    certificates_offered: int
    certificates_sold: int
    face_value_offered: float
    face_value_sold: float
    average_bid_rate: float
    struck_to_county: int
    status: Literal["scheduled", "in_progress", "completed"]


class Holder(TypedDict):
    id: str
    name: str
    normalized_name: str
    certificate_count: int
    outstanding_face_amount: float
    counties: List[str]
    first_seen_tax_year: int
    last_seen_tax_year: int


class LandsAvailable(TypedDict):
    id: str
    certificate_number: str
    county_slug: str
    county_name: str
    parcel_id: str
    tax_year: int
    status: Literal["lands_available"]
    face_amount: float
    opening_bid: float
    tax_deed_application_date: str
    available_since: str
    owner_name: str
    site_address_full: str
    parcel_url: str


class County(TypedDict):
    id: str
    countyName: str
    countySlug: str
    countyFips: Optional[str]
    dorCountyNumber: Optional[str]
    propertyAppraiserUrl: Optional[str]
    taxCollectorUrl: Optional[str]
    taxCertificateSaleUrl: Optional[str]
    taxCertificateVendor: Optional[str]
    coverageStatus: Literal["directory_only", "vendor_tracked", "certificate_level"]
    certificateCount: int
    lastImportAt: Optional[str]
    createdAt: str
    updatedAt: str


class Source(TypedDict):
    id: str
    countyId: str
    countySlug: str
    taxYear: int
    vendor: str
    saleUrl: Optional[str]
    downloadUrl: Optional[str]
    sourceKind: str
    requiresLogin: bool
    lastCheckedAt: Optional[str]
    lastSuccessAt: Optional[str]
    lastError: Optional[str]
    active: bool
    notes: str
    createdAt: str
    updatedAt: str


class Usage(TypedDict):
    events_count: int
    monthly_quota: int
    percent_used: float
    reset_date: str
    plan: str


class CertificateCounts(TypedDict):
    county: Optional[str]
    tax_year: Optional[int]
    counts: List[CertificateCountsCountsItem]


class CertificateFreshness(TypedDict):
    certificate_count: int
    latest_tax_year: Optional[int]
    last_ingested_at: Optional[str]
    last_source_success_at: Optional[str]


class FieldDescriptor(TypedDict):
    name: str
    type: Literal["string", "integer", "number", "date", "boolean", "enum"]
    description: str
    values: NotRequired[List[str]]


class CertificateFields(TypedDict):
    fields: List[FieldDescriptor]


class Health(TypedDict):
    status: Literal["ok", "unavailable"]
    opensearch: Literal["ok", "unavailable"]
    redis: Literal["ok", "unavailable"]
    sqlite: NotRequired[Literal["ok", "unavailable"]]
    postgres: NotRequired[Literal["ok", "unavailable"]]


class Meta(TypedDict):
    request_id: str
    dataset_status: Literal["live"]
    coverage: NotRequired[MetaCoverage]


class Pagination(TypedDict):
    limit: int
    offset: int
    total: int
    has_more: bool


Facets: TypeAlias = 'Dict[str, List[FacetsValueItem]]'
"""Only when facets= was asked for: per field, every value with its count, most frequent first (holder_group: the 25 largest groups, each with its label)."""


class Error(TypedDict):
    error: ErrorError


class CertificateSearchList(TypedDict):
    data: List[CertificateView]
    pagination: Pagination
    facets: NotRequired[Facets]
    meta: Meta


class CertificateList(TypedDict):
    data: List[CertificateView]
    pagination: Pagination
    meta: Meta


class CertificateResponse(TypedDict):
    data: CertificateView
    meta: Meta


class CertificateFeatureCollection(TypedDict):
    """format=geojson: the rows as GeoJSON Point features, with the JSON answer's pagination, facets and meta."""
    type: Literal["FeatureCollection"]
    features: List[CertificateFeatureCollectionFeaturesItem]
    pagination: Pagination
    facets: NotRequired[Facets]
    meta: Meta


class CertificateByIdFeatureCollection(TypedDict):
    """format=geojson: the rows as GeoJSON Point features, with the JSON answer's pagination, facets and meta."""
    type: Literal["FeatureCollection"]
    features: List[CertificateByIdFeatureCollectionFeaturesItem]
    meta: Meta


class GeoGridCell(TypedDict):
    key: str
    bounds: GeoGridCellBounds
    count: int
    face_amount_sum: float


class CertificateGeoGrid(TypedDict):
    zoom: int
    located: int
    cells: List[GeoGridCell]


class CertificateGeoGridResponse(TypedDict):
    data: CertificateGeoGrid
    meta: Meta


class CertificateCountsResponse(TypedDict):
    data: CertificateCounts
    meta: Meta


class CertificateFieldsResponse(TypedDict):
    data: CertificateFields
    meta: Meta


class CertificateFreshnessResponse(TypedDict):
    data: CertificateFreshness
    meta: Meta


class CertificateSaleList(TypedDict):
    data: List[CertificateSale]
    pagination: Pagination
    meta: Meta


class HolderList(TypedDict):
    data: List[Holder]
    pagination: Pagination
    meta: Meta


class HolderResponse(TypedDict):
    data: Holder
    meta: Meta


class LandsAvailableList(TypedDict):
    data: List[LandsAvailable]
    pagination: Pagination
    meta: Meta


class CountyListResponse(TypedDict):
    data: List[County]
    meta: Meta


class CountyResponse(TypedDict):
    data: County
    meta: Meta


class SourceList(TypedDict):
    data: List[Source]
    pagination: Pagination
    meta: Meta


class BulkFile(TypedDict):
    name: str
    dataset: Literal["certificates", "certificate-sales", "lands-available", "holders", "counties", "sources"]
    kind: Literal["snapshot", "delta"]
    county: Optional[str]
    tax_year: Optional[int]
    day: Optional[str]
    format: Literal["parquet", "ndjson", "csv"]
    rows: int
    bytes: int
    sha256: str
    generated_at: str
    through_event: Optional[str]


class BulkFileList(TypedDict):
    data: List[BulkFile]
    pagination: Pagination
    meta: Meta


class UsageResponse(TypedDict):
    data: Usage
    meta: Meta


class HolderGroup(TypedDict):
    group_id: str
    name: str
    members: List[HolderGroupMembersItem]
    certificates: int
    face_amount: float
    outstanding_face_amount: float
    counties: List[str]
    first_tax_year: int
    last_tax_year: int
    median_rate: float
    share_quarter: float
    redeemed_share: float
    county_held: bool


class HolderGroupList(TypedDict):
    data: List[HolderGroup]
    pagination: Pagination
    meta: Meta


class RedemptionQuote(TypedDict):
    certificate_id: str
    as_of: str
    status: Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]
    redeemable: bool
    reason: Optional[Literal["redeemed", "cancelled", "expired"]]
    face_amount: float
    interest_rate: float
    first_interest_month: str
    interest_months: Optional[int]
    accrued_interest: Optional[float]
    minimum_interest: Optional[float]
    interest_due: Optional[float]
    rule: Optional[Literal["accrued", "minimum_5_percent", "zero_bid", "no_interest_yet"]]
    holder_amount: Optional[float]
    redemption_fee: Optional[float]
    total_due: Optional[float]
    deed_application_pending: bool
    statute: List[str]


class RedemptionQuoteResponse(TypedDict):
    data: RedemptionQuote
    meta: Meta


class CertificateTimeline(TypedDict):
    certificate_id: str
    as_of: str
    status: Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]
    dates: CertificateTimelineDates
    next_deadline: Optional[CertificateTimelineNextDeadline]


class CertificateTimelineResponse(TypedDict):
    data: CertificateTimeline
    meta: Meta


class DeedEstimate(TypedDict):
    certificate_id: str
    as_of: str
    status: Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]
    eligible: bool
    eligible_from: str
    other_certificates: List[DeedEstimateOtherCertificatesItem]
    other_certificates_total: float
    application_fee: float
    known_total: float
    not_included: List[str]


class DeedEstimateResponse(TypedDict):
    data: DeedEstimate
    meta: Meta


class BidRateAnalytics(TypedDict):
    scope: BidRateAnalyticsScope
    certificates: int
    struck_to_county: int
    face_amount: float
    rate: BidRateAnalyticsRate
    shares: BidRateAnalyticsShares
    histogram: List[BidRateAnalyticsHistogramItem]
    by_county: List[BidRateAnalyticsByCountyItem]


class BidRateAnalyticsResponse(TypedDict):
    data: BidRateAnalytics
    meta: Meta


class RedemptionCurve(TypedDict):
    scope: RedemptionCurveScope
    certificates: int
    redeemed: int
    median_months: Optional[int]
    observed_through_months: Optional[int]
    redeemed_share_by: List[RedemptionCurveRedeemedShareByItem]
    curve: List[RedemptionCurveCurveItem]


class RedemptionCurveResponse(TypedDict):
    data: RedemptionCurve
    meta: Meta


class ExpectedYield(TypedDict):
    scope: ExpectedYieldScope
    horizon_months: int
    target_yield: Optional[float]
    certificates: int
    redeemed_within_horizon: Optional[float]
    rates: List[ExpectedYieldRatesItem]
    lowest_rate_meeting_target: Optional[float]


class ExpectedYieldResponse(TypedDict):
    data: ExpectedYield
    meta: Meta


class CertificateEvent(TypedDict):
    id: str
    type: Literal["certificate.created", "certificate.redeemed", "certificate.tax_deed_applied", "certificate.lands_available", "certificate.cancelled", "certificate.status_changed", "certificate.updated"]
    created_at: str
    county_slug: str
    data: CertificateEventData


class CertificatesLoaded(TypedDict):
    county_slug: str
    county_name: str
    tax_year: int
    count: int


class CertificatesLoadedEvent(TypedDict):
    id: str
    type: Literal["certificates.loaded"]
    created_at: str
    county_slug: str
    data: CertificatesLoadedEventData


class CertificateSaleEvent(TypedDict):
    id: str
    type: Literal["certificate_sale.created", "certificate_sale.status_changed"]
    created_at: str
    county_slug: str
    data: CertificateSaleEventData


class CountyEvent(TypedDict):
    id: str
    type: Literal["county.coverage_changed"]
    created_at: str
    county_slug: str
    data: CountyEventData


Event: TypeAlias = 'Union[CertificateEvent, CertificatesLoadedEvent, CertificateSaleEvent, CountyEvent, EventOption5, EventOption6, EventOption7, EventOption8]'


class EventPagination(TypedDict):
    limit: int
    offset: Literal[0]
    total: int
    has_more: bool
    next_after: Optional[str]


class EventList(TypedDict):
    data: List[Event]
    pagination: EventPagination
    meta: Meta


class WebhookEndpoint(TypedDict):
    id: str
    url: str
    types: Optional[List[str]]
    counties: Optional[List[str]]
    saved_searches: Optional[List[str]]
    status: Literal["enabled", "disabled"]
    disabled_reason: Optional[Literal["operator", "gone", "failing"]]
    disabled_at: Optional[str]
    secret_rotated_at: Optional[str]
    created_at: str


class WebhookAttempt(TypedDict):
    attempt: int
    replay: int
    started_at: str
    duration_ms: int
    http_status: Optional[int]
    error: Optional[str]
    response_body: Optional[str]


class WebhookDelivery(TypedDict):
    id: str
    endpoint_id: str
    event_id: str
    event_type: str
    status: Literal["pending", "delivered", "failed"]
    attempts: int
    next_attempt_at: Optional[str]
    last_error: Optional[str]
    created_at: str
    updated_at: str
    attempt_log: List[WebhookAttempt]


class WebhookEndpointList(TypedDict):
    data: List[WebhookEndpoint]
    pagination: Pagination
    meta: Meta


class WebhookDeliveryList(TypedDict):
    data: List[WebhookDelivery]
    pagination: Pagination
    meta: Meta


class WebhookEndpointResponse(TypedDict):
    data: WebhookEndpoint
    meta: Meta


class WebhookEndpointWithSecret(TypedDict):
    id: str
    url: str
    types: Optional[List[str]]
    counties: Optional[List[str]]
    saved_searches: Optional[List[str]]
    status: Literal["enabled", "disabled"]
    disabled_reason: Optional[Literal["operator", "gone", "failing"]]
    disabled_at: Optional[str]
    secret_rotated_at: Optional[str]
    created_at: str
    secret: str


class WebhookEndpointSecretResponse(TypedDict):
    data: WebhookEndpointWithSecret
    meta: Meta


class Deleted(TypedDict):
    id: str
    deleted: bool


class DeletedResponse(TypedDict):
    data: Deleted
    meta: Meta


class SavedSearch(TypedDict):
    id: str
    name: str
    params: SavedSearchParams
    created_at: str
    updated_at: str


class SavedSearchList(TypedDict):
    data: List[SavedSearch]
    pagination: Pagination
    meta: Meta


class SavedSearchResponse(TypedDict):
    data: SavedSearch
    meta: Meta


class Portfolio(TypedDict):
    id: str
    name: str
    follow_holder_group: Optional[str]
    created_at: str
    updated_at: str


class PortfolioList(TypedDict):
    data: List[Portfolio]
    pagination: Pagination
    meta: Meta


class PortfolioResponse(TypedDict):
    data: Portfolio
    meta: Meta


class PortfolioPosition(TypedDict):
    id: str
    portfolio_id: str
    certificate_id: str
    county: str
    certificate_number: str
    tax_year: int
    acquired_on: Optional[str]
    acquired_amount: Optional[float]
    note: Optional[str]
    created_at: str
    resolved: bool


class PortfolioPositionsReport(TypedDict):
    portfolio_id: str
    created: int
    unresolved: int
    rejected: int
    lines: List[Union[PortfolioPositionsReportLinesItemOption1, PortfolioPositionsReportLinesItemOption2]]


class PortfolioPositionsReportResponse(TypedDict):
    data: PortfolioPositionsReport
    meta: Meta


class PortfolioPositionAnswer(TypedDict):
    id: str
    origin: Literal["added", "holder_group"]
    certificate_id: str
    county_slug: str
    certificate_number: str
    tax_year: int
    status: Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled", "unresolved"]
    certificate: Optional[Certificate]
    quote: Optional[RedemptionQuote]
    next_deadline: Optional[PortfolioPositionAnswerNextDeadline]
    acquired_on: Optional[str]
    acquired_amount: Optional[float]
    note: Optional[str]
    redeemed_on: Optional[str]
    interest_earned: Optional[float]
    annualized_yield: Optional[float]


class PortfolioPositionAnswerList(TypedDict):
    data: List[PortfolioPositionAnswer]
    pagination: Pagination
    meta: Meta


class PortfolioSummary(TypedDict):
    portfolio_id: str
    as_of: str
    positions: int
    by_status: PortfolioSummaryByStatus
    unresolved: int
    outstanding: PortfolioSummaryOutstanding
    redeemed: PortfolioSummaryRedeemed
    interest_earned_by_year: List[PortfolioSummaryInterestEarnedByYearItem]
    deadlines: PortfolioSummaryDeadlines


class PortfolioSummaryResponse(TypedDict):
    data: PortfolioSummary
    meta: Meta


class PortfolioCalendarAddress(TypedDict):
    portfolio_id: str
    url: str
    token: str
    created_at: str


class PortfolioCalendarAddressResponse(TypedDict):
    data: PortfolioCalendarAddress
    meta: Meta


class OpenApiDocument(TypedDict):
    """An OpenAPI 3.1 document."""
    openapi: str


class CertificateCountsCountsItem(TypedDict):
    status: Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]
    count: int


class MetaCoverage(TypedDict):
    """Present only while the dataset holds no documents (holders and lands-available today)."""
    status: Literal["not_yet_ingested"]


class FacetsValueItem(TypedDict):
    value: Union[str, float, bool]
    count: int
    label: NotRequired[str]


class ErrorError(TypedDict):
    code: str
    message: str
    request_id: str
    details: NotRequired[Dict[str, Any]]


class CertificateFeatureCollectionFeaturesItem(TypedDict):
    type: Literal["Feature"]
    geometry: Optional[CertificateFeatureCollectionFeaturesItemGeometry]
    properties: CertificateView


class CertificateFeatureCollectionFeaturesItemGeometry(TypedDict):
    """The parcel centroid, or null for a certificate without a location."""
    type: Literal["Point"]
    coordinates: List[float]


class CertificateByIdFeatureCollectionFeaturesItem(TypedDict):
    type: Literal["Feature"]
    geometry: Optional[CertificateByIdFeatureCollectionFeaturesItemGeometry]
    properties: CertificateView


class CertificateByIdFeatureCollectionFeaturesItemGeometry(TypedDict):
    """The parcel centroid, or null for a certificate without a location."""
    type: Literal["Point"]
    coordinates: List[float]


class GeoGridCellBounds(TypedDict):
    """The tile's corners in decimal degrees (Web Mercator tile edges; the north and west edges belong to the cell)."""
    top_left: GeoGridCellBoundsTopLeft
    bottom_right: GeoGridCellBoundsBottomRight


class GeoGridCellBoundsTopLeft(TypedDict):
    lat: float
    lon: float


class GeoGridCellBoundsBottomRight(TypedDict):
    lat: float
    lon: float


class HolderGroupMembersItem(TypedDict):
    name: str
    certificates: int


class CertificateTimelineDates(TypedDict):
    """The certificate's statutory dates."""
    sale: str
    interest_starts: str
    deed_application_earliest: str
    expires: Optional[str]
    tax_deed_application: Optional[str]
    redeemed: Optional[str]


class CertificateTimelineNextDeadline(TypedDict):
    """For a certificate still outstanding (sold or tax_deed_applied): the earliest deadline on or after as_of; else null."""
    name: Literal["deed_application_earliest", "expires"]
    date: str
    days_left: int


class DeedEstimateOtherCertificatesItem(TypedDict):
    id: str
    certificate_number: str
    tax_year: int
    status: Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]
    holder_name: str
    holder_amount: Optional[float]


class BidRateAnalyticsScope(TypedDict):
    """The scope asked for (null where a parameter was not given)."""
    county: Optional[List[str]]
    tax_year: Optional[List[int]]
    vendor: Optional[List[str]]


class BidRateAnalyticsRate(TypedDict):
    """Winning rates (percent per year); null where there are no certificates."""
    min: Optional[float]
    p25: Optional[float]
    median: Optional[float]
    p75: Optional[float]
    max: Optional[float]
    mean: Optional[float]
    face_weighted_mean: Optional[float]


class BidRateAnalyticsShares(TypedDict):
    """Fractions of the certificates, 4 decimals (half up); null where there are no certificates."""
    zero: Optional[float]
    quarter: Optional[float]
    at_or_below_1: Optional[float]
    above_5: Optional[float]
    at_18: Optional[float]


class BidRateAnalyticsHistogramItem(TypedDict):
    rate: float
    certificates: int
    face_amount: float


class BidRateAnalyticsByCountyItem(TypedDict):
    county: str
    certificates: int
    median: float
    share_quarter: float
    share_above_5: float


class RedemptionCurveScope(TypedDict):
    county: Optional[List[str]]
    tax_year: Optional[List[int]]
    vendor: Optional[List[str]]
    face_min: Optional[float]
    face_max: Optional[float]
    rate_min: Optional[float]
    rate_max: Optional[float]
    as_of: str


class RedemptionCurveRedeemedShareByItem(TypedDict):
    months: int
    share: Optional[float]


class RedemptionCurveCurveItem(TypedDict):
    months: int
    at_risk: int
    redeemed: int
    censored: int
    survival: Optional[float]


class ExpectedYieldScope(TypedDict):
    county: Optional[List[str]]
    tax_year: Optional[List[int]]
    vendor: Optional[List[str]]
    face_min: Optional[float]
    face_max: Optional[float]
    rate_min: Optional[float]
    rate_max: Optional[float]
    as_of: str


class ExpectedYieldRatesItem(TypedDict):
    rate: float
    expected_yield: Optional[float]
    won_above: Optional[float]
    won_at: Optional[float]


class CertificateEventData(TypedDict):
    object: Certificate
    previous: CertificateEventDataPrevious


class CertificateEventDataPrevious(TypedDict):
    """Each public field that changed, with its value before the change; {} for certificate.created."""
    id: NotRequired[str]
    certificate_number: NotRequired[str]
    county_slug: NotRequired[str]
    county_name: NotRequired[str]
    parcel_id: NotRequired[str]
    tax_year: NotRequired[int]
    status: NotRequired[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]]
    face_amount: NotRequired[float]
    delinquent_amount: NotRequired[float]
    interest_rate: NotRequired[float]
    sale_date: NotRequired[str]
    holder_id: NotRequired[str]
    holder_name: NotRequired[str]
    vendor: NotRequired[str]
    redeemed: NotRequired[bool]
    redeemed_date: NotRequired[Optional[str]]
    redemption_amount: NotRequired[Optional[float]]
    tax_deed_application_date: NotRequired[Optional[str]]
    owner_name: NotRequired[str]
    site_address_full: NotRequired[str]
    parcel_url: NotRequired[str]


class CertificatesLoadedEventData(TypedDict):
    object: CertificatesLoaded
    previous: Dict[str, Any]


class CertificateSaleEventData(TypedDict):
    object: CertificateSale
    previous: CertificateSaleEventDataPrevious


class CertificateSaleEventDataPrevious(TypedDict):
    """status_changed: the status told before; {} for created."""
    id: NotRequired[str]
    county_slug: NotRequired[str]
    county_name: NotRequired[str]
    tax_year: NotRequired[int]
    sale_date: NotRequired[str]
    vendor: NotRequired[str]
    sale_url: NotRequired[Optional[str]]
    certificates_offered: NotRequired[int]
    certificates_sold: NotRequired[int]
    face_value_offered: NotRequired[float]
    face_value_sold: NotRequired[float]
    average_bid_rate: NotRequired[float]
    struck_to_county: NotRequired[int]
    status: NotRequired[Literal["scheduled", "in_progress", "completed"]]


class CountyEventData(TypedDict):
    object: County
    previous: CountyEventDataPrevious


class CountyEventDataPrevious(TypedDict):
    """Each field the same update changed (coverageStatus always), with its old value."""
    id: NotRequired[str]
    countyName: NotRequired[str]
    countySlug: NotRequired[str]
    countyFips: NotRequired[Optional[str]]
    dorCountyNumber: NotRequired[Optional[str]]
    propertyAppraiserUrl: NotRequired[Optional[str]]
    taxCollectorUrl: NotRequired[Optional[str]]
    taxCertificateSaleUrl: NotRequired[Optional[str]]
    taxCertificateVendor: NotRequired[Optional[str]]
    coverageStatus: NotRequired[Literal["directory_only", "vendor_tracked", "certificate_level"]]
    certificateCount: NotRequired[int]
    lastImportAt: NotRequired[Optional[str]]
    createdAt: NotRequired[str]
    updatedAt: NotRequired[str]


class EventOption5(TypedDict):
    id: str
    type: Literal["saved_search.match_added", "saved_search.match_removed", "saved_search.match_updated"]
    created_at: str
    county_slug: str
    data: EventOption5Data


class EventOption5Data(TypedDict):
    saved_search: EventOption5DataSavedSearch
    object: Certificate
    previous: EventOption5DataPrevious


class EventOption5DataSavedSearch(TypedDict):
    """The saved search whose matches moved: events of a saved search are seen only by the client that owns it."""
    id: str
    name: str


class EventOption5DataPrevious(TypedDict):
    """Each public field that changed, with its value before the change; {} for a new certificate."""
    id: NotRequired[str]
    certificate_number: NotRequired[str]
    county_slug: NotRequired[str]
    county_name: NotRequired[str]
    parcel_id: NotRequired[str]
    tax_year: NotRequired[int]
    status: NotRequired[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]]
    face_amount: NotRequired[float]
    delinquent_amount: NotRequired[float]
    interest_rate: NotRequired[float]
    sale_date: NotRequired[str]
    holder_id: NotRequired[str]
    holder_name: NotRequired[str]
    vendor: NotRequired[str]
    redeemed: NotRequired[bool]
    redeemed_date: NotRequired[Optional[str]]
    redemption_amount: NotRequired[Optional[float]]
    tax_deed_application_date: NotRequired[Optional[str]]
    owner_name: NotRequired[str]
    site_address_full: NotRequired[str]
    parcel_url: NotRequired[str]


class EventOption6(TypedDict):
    id: str
    type: Literal["saved_search.matches_loaded"]
    created_at: str
    county_slug: str
    data: EventOption6Data


class EventOption6Data(TypedDict):
    saved_search: EventOption6DataSavedSearch
    object: EventOption6DataObject
    previous: Dict[str, Any]


class EventOption6DataSavedSearch(TypedDict):
    """The saved search whose matches moved: events of a saved search are seen only by the client that owns it."""
    id: str
    name: str


class EventOption6DataObject(TypedDict):
    county_slug: str
    county_name: str
    tax_year: int
    count: int


class EventOption7(TypedDict):
    id: str
    type: Literal["portfolio.deadline_approaching"]
    created_at: str
    county_slug: str
    data: EventOption7Data


class EventOption7Data(TypedDict):
    portfolio: EventOption7DataPortfolio
    position: EventOption7DataPosition
    certificate: Certificate
    kind: Literal["deed_application_opens", "expires"]
    date: str
    days_left: int


class EventOption7DataPortfolio(TypedDict):
    """The portfolio the certificate is in: a portfolio's events are seen only by the client that owns it."""
    id: str
    name: str


class EventOption7DataPosition(TypedDict):
    id: str


class EventOption8(TypedDict):
    id: str
    type: Literal["portfolio.position_changed"]
    created_at: str
    county_slug: str
    data: EventOption8Data


class EventOption8Data(TypedDict):
    portfolio: EventOption8DataPortfolio
    position: Optional[EventOption8DataPosition]
    change: Literal["certificate.created", "certificate.redeemed", "certificate.tax_deed_applied", "certificate.lands_available", "certificate.cancelled", "certificate.status_changed", "certificate.updated"]
    object: Certificate
    previous: EventOption8DataPrevious


class EventOption8DataPortfolio(TypedDict):
    """The portfolio the certificate is in: a portfolio's events are seen only by the client that owns it."""
    id: str
    name: str


class EventOption8DataPosition(TypedDict):
    """The position holding the certificate; null when the certificate is the portfolio's through its followed holder group only."""
    id: str


class EventOption8DataPrevious(TypedDict):
    """Each public field that changed, with its value before the change; {} for a new certificate."""
    id: NotRequired[str]
    certificate_number: NotRequired[str]
    county_slug: NotRequired[str]
    county_name: NotRequired[str]
    parcel_id: NotRequired[str]
    tax_year: NotRequired[int]
    status: NotRequired[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]]
    face_amount: NotRequired[float]
    delinquent_amount: NotRequired[float]
    interest_rate: NotRequired[float]
    sale_date: NotRequired[str]
    holder_id: NotRequired[str]
    holder_name: NotRequired[str]
    vendor: NotRequired[str]
    redeemed: NotRequired[bool]
    redeemed_date: NotRequired[Optional[str]]
    redemption_amount: NotRequired[Optional[float]]
    tax_deed_application_date: NotRequired[Optional[str]]
    owner_name: NotRequired[str]
    site_address_full: NotRequired[str]
    parcel_url: NotRequired[str]


class SavedSearchParams(TypedDict):
    """The /certificates/search filters it selects, as the search reads them (lists as arrays, amounts and years as numbers); {} is the whole market."""
    query: NotRequired[str]
    county: NotRequired[List[str]]
    status: NotRequired[List[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]]]
    tax_year: NotRequired[List[int]]
    holder: NotRequired[str]
    holder_group: NotRequired[List[str]]
    vendor: NotRequired[List[str]]
    face_min: NotRequired[float]
    face_max: NotRequired[float]
    sale_after: NotRequired[str]
    sale_before: NotRequired[str]
    redeemed: NotRequired[bool]
    deed_eligible_by: NotRequired[str]
    expires_before: NotRequired[str]
    rate_min: NotRequired[float]
    rate_max: NotRequired[float]
    bbox: NotRequired[str]
    near: NotRequired[str]
    radius: NotRequired[str]
    polygon: NotRequired[str]
    homestead: NotRequired[bool]
    just_value_min: NotRequired[int]
    just_value_max: NotRequired[int]
    use_code: NotRequired[List[str]]
    zip: NotRequired[List[str]]
    city: NotRequired[List[str]]
    owner_type: NotRequired[Literal["entity", "person"]]


class PortfolioPositionsReportLinesItemOption1(TypedDict):
    line: int
    status: Literal["created"]
    position: PortfolioPosition


class PortfolioPositionsReportLinesItemOption2(TypedDict):
    line: int
    status: Literal["rejected"]
    error: PortfolioPositionsReportLinesItemOption2Error


class PortfolioPositionsReportLinesItemOption2Error(TypedDict):
    code: Literal["invalid", "unknown_county", "unknown_certificate", "duplicate"]
    message: str
    field: str


class PortfolioPositionAnswerNextDeadline(TypedDict):
    """The certificate timeline's next deadline on or after as_of (GET /certificates/{id}/timeline); null when none is ahead (redeemed, cancelled, expired) or the certificate is unresolved."""
    kind: Literal["deed_application_opens", "expires"]
    date: str
    days_left: int


class PortfolioSummaryByStatus(TypedDict):
    """Positions per certificate status now, zeros included; unresolved: the certificate is not in the data yet."""
    available: int
    advertised: int
    sold: int
    redeemed: int
    lands_available: int
    tax_deed_applied: int
    cancelled: int
    unresolved: int


class PortfolioSummaryOutstanding(TypedDict):
    """What is still owed to the holder on as_of."""
    positions: int
    face_amount: float
    payoff_as_of: float
    interest_accrued: float


class PortfolioSummaryRedeemed(TypedDict):
    """What was paid off by as_of."""
    positions: int
    face_amount: float
    interest_earned: float


class PortfolioSummaryInterestEarnedByYearItem(TypedDict):
    year: int
    positions: int
    interest_earned: float


class PortfolioSummaryDeadlines(TypedDict):
    """Next deadlines coming up, by kind; each window includes the shorter ones."""
    within_7_days: PortfolioSummaryDeadlinesWithin7Days
    within_30_days: PortfolioSummaryDeadlinesWithin30Days
    within_90_days: PortfolioSummaryDeadlinesWithin90Days


class PortfolioSummaryDeadlinesWithin7Days(TypedDict):
    """Positions whose next deadline is this kind and at most that many days from as_of (0 on the day)."""
    deed_application_opens: int
    expires: int


class PortfolioSummaryDeadlinesWithin30Days(TypedDict):
    """Positions whose next deadline is this kind and at most that many days from as_of (0 on the day)."""
    deed_application_opens: int
    expires: int


class PortfolioSummaryDeadlinesWithin90Days(TypedDict):
    """Positions whose next deadline is this kind and at most that many days from as_of (0 on the day)."""
    deed_application_opens: int
    expires: int


class CreateWebhookEndpointBody(TypedDict):
    url: str
    types: NotRequired[List[str]]
    counties: NotRequired[List[str]]
    saved_searches: NotRequired[List[str]]


class UpdateWebhookEndpointBody(TypedDict):
    url: NotRequired[str]
    types: NotRequired[Optional[List[str]]]
    counties: NotRequired[Optional[List[str]]]
    saved_searches: NotRequired[Optional[List[str]]]
    status: NotRequired[Literal["enabled", "disabled"]]


class CreateSavedSearchBody(TypedDict):
    name: str
    params: CreateSavedSearchBodyParams


class CreateSavedSearchBodyParams(TypedDict):
    """The filters of GET /api/v1/certificates/search, with the same names, values and rules: each value as JSON (a list as an array or comma-separated text, a number or boolean as itself or as text). sort, limit, offset, facets and format are not part of a saved search: give them to /matches. {} is the whole market."""
    query: NotRequired[Union[str, List[str]]]
    county: NotRequired[Union[List[str], str]]
    status: NotRequired[Union[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"], List[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]], str]]
    tax_year: NotRequired[Union[List[Union[int, str]], int, str]]
    holder: NotRequired[Union[str, List[str]]]
    holder_group: NotRequired[Union[List[str], str]]
    vendor: NotRequired[Union[List[str], str]]
    face_min: NotRequired[Union[float, str, List[Union[float, str]]]]
    face_max: NotRequired[Union[float, str, List[Union[float, str]]]]
    sale_after: NotRequired[Union[str, List[str]]]
    sale_before: NotRequired[Union[str, List[str]]]
    redeemed: NotRequired[Union[Literal["true", "false"], bool, List[Union[Literal["true", "false"], bool]]]]
    deed_eligible_by: NotRequired[Union[str, List[str]]]
    expires_before: NotRequired[Union[str, List[str]]]
    rate_min: NotRequired[Union[float, str, List[Union[float, str]]]]
    rate_max: NotRequired[Union[float, str, List[Union[float, str]]]]
    bbox: NotRequired[Union[str, List[str]]]
    near: NotRequired[Union[str, List[str]]]
    radius: NotRequired[Union[str, List[str]]]
    polygon: NotRequired[Union[str, List[str]]]
    homestead: NotRequired[Union[Literal["true", "false"], bool, List[Union[Literal["true", "false"], bool]]]]
    just_value_min: NotRequired[Union[int, str, List[Union[int, str]]]]
    just_value_max: NotRequired[Union[int, str, List[Union[int, str]]]]
    use_code: NotRequired[Union[List[str], str]]
    zip: NotRequired[Union[List[str], str]]
    city: NotRequired[Union[List[str], str]]
    owner_type: NotRequired[Union[Literal["entity", "person"], List[Literal["entity", "person"]]]]


class UpdateSavedSearchBody(TypedDict):
    name: NotRequired[str]
    params: NotRequired[UpdateSavedSearchBodyParams]


class UpdateSavedSearchBodyParams(TypedDict):
    """The filters of GET /api/v1/certificates/search, with the same names, values and rules: each value as JSON (a list as an array or comma-separated text, a number or boolean as itself or as text). sort, limit, offset, facets and format are not part of a saved search: give them to /matches. {} is the whole market."""
    query: NotRequired[Union[str, List[str]]]
    county: NotRequired[Union[List[str], str]]
    status: NotRequired[Union[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"], List[Literal["available", "advertised", "sold", "redeemed", "lands_available", "tax_deed_applied", "cancelled"]], str]]
    tax_year: NotRequired[Union[List[Union[int, str]], int, str]]
    holder: NotRequired[Union[str, List[str]]]
    holder_group: NotRequired[Union[List[str], str]]
    vendor: NotRequired[Union[List[str], str]]
    face_min: NotRequired[Union[float, str, List[Union[float, str]]]]
    face_max: NotRequired[Union[float, str, List[Union[float, str]]]]
    sale_after: NotRequired[Union[str, List[str]]]
    sale_before: NotRequired[Union[str, List[str]]]
    redeemed: NotRequired[Union[Literal["true", "false"], bool, List[Union[Literal["true", "false"], bool]]]]
    deed_eligible_by: NotRequired[Union[str, List[str]]]
    expires_before: NotRequired[Union[str, List[str]]]
    rate_min: NotRequired[Union[float, str, List[Union[float, str]]]]
    rate_max: NotRequired[Union[float, str, List[Union[float, str]]]]
    bbox: NotRequired[Union[str, List[str]]]
    near: NotRequired[Union[str, List[str]]]
    radius: NotRequired[Union[str, List[str]]]
    polygon: NotRequired[Union[str, List[str]]]
    homestead: NotRequired[Union[Literal["true", "false"], bool, List[Union[Literal["true", "false"], bool]]]]
    just_value_min: NotRequired[Union[int, str, List[Union[int, str]]]]
    just_value_max: NotRequired[Union[int, str, List[Union[int, str]]]]
    use_code: NotRequired[Union[List[str], str]]
    zip: NotRequired[Union[List[str], str]]
    city: NotRequired[Union[List[str], str]]
    owner_type: NotRequired[Union[Literal["entity", "person"], List[Literal["entity", "person"]]]]


class CreatePortfolioBody(TypedDict):
    name: str
    follow_holder_group: NotRequired[Optional[str]]


class UpdatePortfolioBody(TypedDict):
    name: NotRequired[str]
    follow_holder_group: NotRequired[Optional[str]]


class AddPortfolioPositionsBody(TypedDict):
    positions: List[AddPortfolioPositionsBodyPositionsItem]


class AddPortfolioPositionsBodyPositionsItem(TypedDict):
    certificate_id: NotRequired[str]
    county: NotRequired[str]
    certificate_number: NotRequired[str]
    tax_year: NotRequired[int]
    acquired_on: NotRequired[Optional[str]]
    acquired_amount: NotRequired[Optional[float]]
    note: NotRequired[Optional[str]]
