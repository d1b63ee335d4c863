Feature: pull_request_reviews, from its OpenAPI description
  The corpus was imported from examples/reviews/openapi.yaml with
  toolcert fixtures import (docs/certify-from-openapi.md): no scenario is
  written by hand. Every accepted example of the description, every
  variant the generator derives from it, and every error answer the
  description declares (a reject served with its status) is a case.

  Scenario: every generated variant of pull_request_reviews
    Then every generated variant of "pull_request_reviews" is handled as expected without leaking
