"""The rules: one function per reason code, each holding the draft's claims against the trace.

Every rule reads the same `Case` (claims already matched against the evidence once, in
`verifier.rules.case`) and yields the reasons it finds, each naming the claim and what the trace
holds for its subject, time and field. The figure rules are exclusive for one claim: an
unsupported figure is blamed on a failed call when one explains it; one the trace holds for
another subject, time or field is that part's rule's; only a supported figure can be an
uncomputed percentage or go the wrong direction. `check_relations` runs before
`check_unverified_claim`: the relations it holds are words the closed-world rule counts as checked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from verifier.rules.absence import check_absence
from verifier.rules.announced import check_announcement_days
from verifier.rules.answers import (
    REQUIREMENTS,
    check_missing_answer,
    check_no_evidence,
    no_draft_reason,
)
from verifier.rules.before_window import check_before_window
from verifier.rules.case import Case, Finding, assess_claim
from verifier.rules.clock import check_clock_times
from verifier.rules.closed_world import check_unverified_claim
from verifier.rules.company_names import check_company_names
from verifier.rules.date_rules import (
    check_base_days,
    check_period_words,
    check_unsupported_date,
    check_wrong_event_day,
    check_wrong_session,
    check_wrong_weekday,
)
from verifier.rules.day_parts import check_day_parts
from verifier.rules.direction_rules import (
    check_alike_moves,
    check_loose_directions,
    check_wrong_direction,
)
from verifier.rules.disclaimers import check_disclaimers
from verifier.rules.event_attributes import check_event_attributes
from verifier.rules.event_windows import check_event_windows
from verifier.rules.figure_rules import (
    check_extended_hours,
    check_uncomputed_percentage,
    check_unresolved_error,
    check_unsupported_figure,
    check_wrong_field,
    check_wrong_subject,
    check_wrong_time,
)
from verifier.rules.gaps import check_gaps
from verifier.rules.headline_parts import (
    check_headline_parts,
    check_headline_sequence,
    check_list_order,
)
from verifier.rules.holding_history import check_holding_history
from verifier.rules.holdings_date import check_holdings_date
from verifier.rules.level_sides import check_level_sides
from verifier.rules.names import check_unknown_headline, check_unknown_ticker
from verifier.rules.news_causes import check_news_causes
from verifier.rules.news_claims import check_news_claims
from verifier.rules.news_items import check_items_together
from verifier.rules.news_sources import check_news_sources
from verifier.rules.news_times import (
    check_headline_openers,
    check_item_came,
    check_items_came,
    check_moves_after_news,
    check_news_times,
    check_too_late_to_move,
)
from verifier.rules.news_together import check_news_together
from verifier.rules.other_portfolios import check_other_portfolio
from verifier.rules.period_levels import check_named_quarters, check_period_levels
from verifier.rules.qualities import check_qualities
from verifier.rules.rank_lists import check_rank_lists
from verifier.rules.record_keys import check_record_keys
from verifier.rules.relations import check_relations
from verifier.rules.sector_mix import check_sector_mix
from verifier.rules.session_counts import check_session_counts
from verifier.rules.share_words import check_share_words
from verifier.rules.streak_words import (
    check_sessions_counted,
    check_streak_since,
    check_streak_words,
)
from verifier.rules.tallies import check_only_movers, check_positions_counted, check_tallies
from verifier.rules.units import check_units
from verifier.rules.windows import (
    check_split_comparisons,
    check_window_comparatives,
    check_window_superlatives,
)
from verifier.verdict import Reason

__all__ = ["REQUIREMENTS", "RULES", "Case", "Finding", "assess_claim", "no_draft_reason"]

RULES: tuple[Callable[[Case], Iterator[Reason]], ...] = (
    check_no_evidence,
    check_unresolved_error,
    check_unsupported_figure,
    check_wrong_subject,
    check_other_portfolio,
    check_wrong_time,
    check_extended_hours,
    check_period_levels,
    check_named_quarters,
    check_wrong_field,
    check_units,
    check_record_keys,
    check_uncomputed_percentage,
    check_wrong_direction,
    check_unsupported_date,
    check_wrong_weekday,
    check_wrong_event_day,
    check_event_attributes,
    check_event_windows,
    check_sector_mix,
    check_holdings_date,
    check_holding_history,
    check_news_together,
    check_wrong_session,
    check_base_days,
    check_period_words,
    check_clock_times,
    check_day_parts,
    check_announcement_days,
    check_unknown_ticker,
    check_unknown_headline,
    check_company_names,
    check_relations,
    check_rank_lists,
    check_window_superlatives,
    check_split_comparisons,
    check_window_comparatives,
    check_gaps,
    check_tallies,
    check_share_words,
    check_qualities,
    check_news_claims,
    check_news_causes,
    check_news_times,
    check_headline_parts,
    check_headline_sequence,
    check_list_order,
    check_moves_after_news,
    check_headline_openers,
    check_too_late_to_move,
    check_level_sides,
    check_items_came,
    check_item_came,
    check_items_together,
    check_streak_words,
    check_streak_since,
    check_sessions_counted,
    check_session_counts,
    check_only_movers,
    check_positions_counted,
    check_news_sources,
    check_loose_directions,
    check_alike_moves,
    check_absence,
    check_before_window,
    check_disclaimers,
    check_unverified_claim,
    check_missing_answer,
)
